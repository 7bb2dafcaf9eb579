// The graph IR: tensors (type, shape, quantization, constant bytes) and operators in execution order.
// The frontend builds it, passes rewrite it, the memory planner and codegen read it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <any>
#include <vector>

#include "ir/dtype.h"

namespace microaot {

enum class OpKind {
#define MICROAOT_OP(kind, tflite_name, code, handler, options, family, data_input, types) kind,
#include "ir/op_list.def"
#undef MICROAOT_OP
  // An op bound to a user's C function (--custom-op, ir/custom_op.h): not a line of op_list.def, so the
  // lists of supported operators, the fuzz recipes and the op suites never see it.
  Custom,
};
// The lines of op_list.def (OpKind::Custom excluded).
constexpr int kOpKindCount = 0
#define MICROAOT_OP(kind, tflite_name, code, handler, options, family, data_input, types) +1
#include "ir/op_list.def"
#undef MICROAOT_OP
    ;

const char* op_kind_name(OpKind kind);  // the TFLite name, e.g. "CONV_2D"
int op_kind_builtin_code(OpKind kind);
const char* op_kind_family(OpKind kind);  // e.g. "conv", "elementwise" (op_list.def)
int op_kind_data_input(OpKind kind);      // the input whose type selects the kernel (op_list.def)
// The types of that input the operator takes, in op_list.def's order; empty when it takes any type.
const std::vector<DType>& op_kind_types(OpKind kind);

// Affine quantization: real = scale * (q - zero_point). One entry per tensor, or one per channel
// along `axis` (per-channel weights).
struct Quantization {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t axis = 0;

  bool empty() const { return scale.empty(); }
  bool per_channel() const { return scale.size() > 1; }
};

// A window of a mirrored ring buffer (passes/ring_windows.cpp, runtime kernels/ring.h): a view of its
// alias_of's bytes that starts unit_bytes times the ring's position (modulo slots) past their start. The
// position is a persistent uint32 tensor the ring's push advances, so the address is known at run time only.
struct RingWindow {
  int position = -1;  // tensor id; -1: not a ring window
  int64_t unit_bytes = 0;
  int32_t slots = 0;
};

struct Tensor {
  std::string name;
  DType dtype = DType::kUnsupported;
  std::vector<int32_t> shape;
  Quantization quant;
  bool is_constant = false;
  std::vector<uint8_t> data;  // the constant's bytes (little-endian, row-major); empty otherwise
  int source_index = -1;      // index in the .tflite subgraph, -1 for tensors made by passes
  int alias_of = -1;          // shares the storage of that tensor (no-op reshape); -1 if it owns storage
  bool is_dead = false;       // removed by remove_dead_code: no op and no graph output uses it
  // A resource variable (frontend/tflite_variables.cpp): state kept from one run to the next, in the
  // persistent region, never reused; `data` holds its initial value (what reset restores).
  bool is_persistent = false;
  RingWindow ring;
  // Decoded at compile time from TensorFlow Lite Micro's look-up-table compression (a TFLM_DECODE operator's
  // output, frontend/tflite_decode.cpp): its index bits and the bytes of TFLM's indices and ancillary data; 0 else.
  int lut_bits = 0;
  int64_t lut_bytes = 0;

  int64_t num_elements() const;
  int64_t byte_size() const;
};

// A constant tensor's bytes as elements of T (the bytes are little-endian, as on every host microaot builds on).
template <typename T>
std::vector<T> constant_values(const Tensor& t) {
  std::vector<T> values(t.data.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), t.data.data(), values.size() * sizeof(T));
  return values;
}

// The int32 position of a ring kept in persistent memory beside `owner`'s storage (a frame window's
// variable, an SVDF state): the slot of the oldest unit, 0 at init and reset.
Tensor ring_position_tensor(const std::string& owner);

enum class Padding { kSame, kValid };
enum class Activation { kNone, kRelu, kReluN1To1, kRelu6 };

// The options of an op, of the type its handler reads (compiler/ops/op_options.h or the op's own file);
// NoOptions for operators without any.
struct NoOptions {};
using OpOptions = std::any;

constexpr int kNoTensor = -1;  // an optional input that is absent (e.g. no bias)

struct Op {
  OpKind kind;
  int source_index = -1;  // position in the .tflite subgraph's operator list
  int version = 1;        // the operator code's version
  std::vector<int> inputs;   // tensor ids, kNoTensor where an optional input is absent
  std::vector<int> outputs;  // tensor ids
  OpOptions options;
};

struct Graph {
  std::string description;  // the model's description string
  std::vector<Tensor> tensors;
  std::vector<Op> ops;  // execution order
  std::vector<int> inputs;
  std::vector<int> outputs;

  const Tensor& tensor(int id) const;
  Tensor& tensor(int id);
  // Follows alias_of to the tensor that owns the storage.
  int storage_of(int id) const;
};

// "CONV_2D (op 3)": how diagnostics name an operator.
std::string describe_op(const Graph& graph, const Op& op);
// "'conv1/weights' (tensor 7)": how diagnostics name a tensor.
std::string describe_tensor(const Graph& graph, int id);

}  // namespace microaot
