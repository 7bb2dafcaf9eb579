// What the element-wise operators with two or three inputs (ADD, MUL, SUB, ..., SELECT_V2) share: NumPy-style
// broadcast planning into the merged dimensions and per-input strides the runtime's broadcast walk takes
// (runtime/include/microaot/broadcast.h), their type, shape and quantization checks, their kernel call
// skeleton and their in-place options.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "ops/op_handler.h"
#include "ops/quant_math.h"

namespace microaot {

constexpr size_t kMaxBroadcastRank = 6;    // MICROAOT_BROADCAST_MAX_DIMS
constexpr size_t kMaxBroadcastInputs = 3;  // MICROAOT_BROADCAST_MAX_INPUTS

// Right-aligned NumPy broadcast of shapes; false when a set of dimensions holds two sizes other than 1.
bool broadcast_shape(const std::vector<std::vector<int32_t>>& shapes, std::vector<int32_t>* out);
inline bool broadcast_shape(const std::vector<int32_t>& a, const std::vector<int32_t>& b, std::vector<int32_t>* out) {
  return broadcast_shape({a, b}, out);
}

// The broadcast walk: output dimensions of size 1 dropped, then neighbours merged wherever every input
// continues contiguously (or stays broadcast) across them. strides[k] are input k's element strides.
struct BroadcastPlan {
  std::vector<int64_t> shape;
  std::vector<std::vector<int64_t>> strides;
  // Same layout for every input and the output: one flat row does.
  bool is_flat() const;
};
BroadcastPlan plan_broadcast(const std::vector<std::vector<int32_t>>& inputs, const std::vector<int32_t>& out);

// Ranks up to 6 with known dimensions for every input and output 0, inputs that broadcast together and an
// output of their broadcast shape.
void check_broadcast_shapes(const Graph& graph, const Op& op);

// Two inputs of one type among `types` and one output of that type (or of `output`, e.g. bool for a
// comparison), shapes as check_broadcast_shapes. Returns the inputs' type.
DType check_binary_op(const Graph& graph, const Op& op, std::initializer_list<DType> types,
                      DType output = DType::kUnsupported);

// int8: per-tensor quantization with zero points in range; int16: symmetric (zero point 0), as TFLM.
void check_binary_quantization(const Graph& graph, const Op& op);

// Inputs without quantization, as TFLM takes int32 arithmetic (ADD, SUB, DIV).
void check_binary_unquantized(const Graph& graph, const Op& op);

// Operators that bring both quantized inputs to one scale before combining them (TFLM's ADD, SUB,
// SQUARED_DIFFERENCE, the int8 comparisons): input k becomes (q - zero point) * 2^left_shift times the
// fixed-point multiplier of real<k> (in (0, 1)), the runtime's microaot_rescale_input.
struct InputRescale {
  int left_shift = 0;
  double real1 = 0, real2 = 0;
};
// Sets left_shift and input<k>_offset, input<k>_multiplier and input<k>_shift of both inputs.
void set_input_rescale_params(const Graph& graph, const Op& op, const InputRescale& rescale, KernelCall& call);

// Sets input1_offset and input2_offset: minus the inputs' zero points.
void set_input_offset_params(const Graph& graph, const Op& op, KernelCall& call);

// Sets output_multiplier and output_shift (m) and output_offset (output 0's zero point): the rescale of a
// quantized result to the output.
void set_output_rescale_params(const Graph& graph, const Op& op, const QuantizedMultiplier& m, KernelCall& call);

// The MICROAOT_BROADCAST_FIELDS (MICROAOT_BROADCAST3_FIELDS) of the call: flat_size, num_dims, the merged
// shape and input<k>_strides of every input.
void set_broadcast_params(const Graph& graph, const Op& op, KernelCall& call);

// The call of a broadcasting kernel whose stem is the op's name in lower case and the inputs' last type
// ("less_equal_s8"; a byte-generic kernel: the name alone), with every input and output 0 as arguments and
// the broadcast fields set; the op's own fields are the caller's.
KernelCall broadcast_call(const Graph& graph, const Op& op, bool byte_generic = false);

// An input with the output's element count is not broadcast: the walk reads its element i just before it
// stores output element i, in order, so the output may overlap it.
std::vector<InPlaceOption> binary_in_place(const Graph& graph, const Op& op);

// One operation per output element.
int64_t binary_macs(const Graph& graph, const Op& op);

}  // namespace microaot
