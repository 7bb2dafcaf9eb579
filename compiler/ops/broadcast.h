// What the element-wise binary operators (ADD, MUL, SUB, ...) share: NumPy-style broadcast planning into the
// merged dimensions and strides the runtime's broadcast walk takes (runtime/include/microaot/broadcast.h),
// their type, shape and quantization checks and their in-place options.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "ops/op_handler.h"

namespace microaot {

constexpr size_t kMaxBroadcastRank = 6;  // MICROAOT_BROADCAST_MAX_DIMS

// Right-aligned NumPy broadcast of two shapes; false when a pair of dimensions is neither equal nor 1.
bool broadcast_shape(const std::vector<int32_t>& a, const std::vector<int32_t>& b, std::vector<int32_t>* out);

// The broadcast walk: output dimensions of size 1 dropped, then neighbours merged wherever both inputs
// continue contiguously (or both stay broadcast) across them.
struct BroadcastPlan {
  std::vector<int64_t> shape, strides1, strides2;
  // Same layout for both inputs and the output: one flat row does.
  bool is_flat() const { return shape.empty() || (shape.size() == 1 && strides1[0] == 1 && strides2[0] == 1); }
};
BroadcastPlan plan_broadcast(const std::vector<int32_t>& in1, const std::vector<int32_t>& in2,
                             const std::vector<int32_t>& out);

// Ranks up to 6 with known dimensions, broadcastable inputs 0 and 1, output 0 of their broadcast shape.
void check_broadcast_shapes(const Graph& graph, const Op& op);

// Two inputs and one output of one type among `types`; ranks up to 6 with known dimensions, broadcastable
// inputs, the output of their broadcast shape. Returns the type.
DType check_binary_op(const Graph& graph, const Op& op, std::initializer_list<DType> types);

// int8: per-tensor quantization with zero points in range; int16: symmetric (zero point 0), as TFLM.
void check_binary_quantization(const Graph& graph, const Op& op);

// The MICROAOT_BROADCAST_FIELDS of the call: flat_size, num_dims and the merged shape and strides.
void set_broadcast_params(const Graph& graph, const Op& op, KernelCall& call);

// An input with the output's element count is not broadcast: the walk reads its element i just before it
// stores output element i, in order, so the output may overlap it.
std::vector<InPlaceOption> binary_in_place(const Graph& graph, const Op& op);

// One operation per output element.
int64_t binary_macs(const Graph& graph, const Op& op);

}  // namespace microaot
