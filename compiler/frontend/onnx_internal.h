// The ONNX frontend's converter state, shared by the per-operator converters (onnx_ops_*.cpp).
// A value of the ONNX graph is an IR tensor plus its layout: a rank-4 value produced by a convolution or
// pool lives in NHWC (the IR shape is the ONNX NCHW shape permuted by kToNhwc); every other value keeps the
// ONNX layout. Converters ask for the layout they need (nhwc(), plain()), which inserts a TRANSPOSE only
// where a layout change is real (a reshape where the moved dimensions are 1).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "onnx/onnx_pb.h"

namespace microaot::onnx_detail {

// A tensor without its bytes. Adding a tensor may move the graph's tensors, so a `const Tensor&` dies then:
// a conversion that adds tensors keeps this copy of what it still reads.
inline Tensor header_of(const Tensor& t) {
  Tensor h;
  h.name = t.name;
  h.dtype = t.dtype;
  h.shape = t.shape;
  h.quant = t.quant;
  h.is_constant = t.is_constant;
  return h;
}

struct Value {
  int id = kNoTensor;
  bool nhwc = false;
};

constexpr int kToNhwc[4] = {0, 2, 3, 1};  // NHWC dimension d is NCHW dimension kToNhwc[d]
constexpr int kToNchw[4] = {0, 3, 1, 2};

class Converter;
using ConvertFn = void (*)(Converter&);

class Converter {
 public:
  Converter(Graph& graph, int opset) : graph_(graph), opset_(opset) {}

  // The node being converted, its index and the since-version of its operator that the opset selects.
  void start_node(const onnx::NodeProto& node, int index, int version);
  const onnx::NodeProto& node() const { return *node_; }
  int version() const { return version_; }
  int index() const { return index_; }
  [[noreturn]] void refuse(const std::string& what) const;
  std::string where() const;  // "node 'conv1' (Conv, version 11)"

  // Inputs and outputs of the node.
  size_t num_inputs() const;
  bool has_input(size_t i) const;  // present and non-empty
  Value input(size_t i) const;
  const Tensor& tensor(Value v) const { return graph_.tensor(v.id); }
  std::vector<int64_t> onnx_shape(Value v) const;  // the shape in ONNX's layout
  size_t num_outputs() const;
  void define(size_t output, Value v);  // binds output i to v
  void define_value(const std::string& name, Value v);
  bool has_value(const std::string& name) const { return values_.count(name) != 0; }
  Value value(const std::string& name) const;

  // Attributes.
  bool has_attr(const char* name) const;
  int64_t attr_int(const char* name, int64_t fallback) const;
  float attr_float(const char* name, float fallback) const;
  std::string attr_string(const char* name, const std::string& fallback) const;
  std::vector<int64_t> attr_ints(const char* name) const;
  const onnx::AttributeProto* attr(const char* name) const;

  // Constants.
  bool is_constant(Value v) const { return tensor(v).is_constant; }
  std::vector<int64_t> constant_ints(Value v, const char* what) const;  // int64/int32 constant's values
  std::vector<float> constant_floats(Value v, const char* what) const;
  Value constant(DType dtype, const std::vector<int32_t>& shape, std::vector<uint8_t> bytes, const std::string& name);
  Value int32_constant(const std::vector<int32_t>& shape, const std::vector<int32_t>& values, const std::string& name);
  Value float_constant(const std::vector<int32_t>& shape, const std::vector<float>& values, const std::string& name);
  Value int64_constant(const std::vector<int64_t>& values);  // 1-D, folded shape arithmetic

  // Layout conversion.
  int nhwc(Value v);   // a rank-4 value in NHWC
  int plain(Value v);  // the value in ONNX's own layout
  // The op that changed tensor `id`'s layout (a TRANSPOSE, or a RESHAPE when only dimensions of 1 move), the
  // copy nhwc() or plain() made of it, or nullptr when none was needed.
  const Op* layout_change_of(int id) const;

  // New tensors and ops.
  int add_tensor(DType dtype, const std::vector<int32_t>& shape, const std::string& name);
  int emit(OpKind kind, std::vector<int> inputs, std::vector<int> outputs, OpOptions options = NoOptions{});
  // One op writing a new tensor of `shape`: its id.
  int emit1(OpKind kind, std::vector<int> inputs, DType dtype, const std::vector<int32_t>& shape,
            OpOptions options = NoOptions{});
  int reshape(int id, const std::vector<int32_t>& shape);
  int transpose(int id, const std::vector<int>& perm);
  std::string output_name(size_t i) const;

  Graph& graph() { return graph_; }
  int opset() const { return opset_; }
  int producer(int tensor_id) const;  // index of the op writing it in graph.ops, -1 for none
  std::map<std::string, int> consumers;  // uses of each ONNX value by nodes and graph outputs
  std::set<int> uint8_twins;  // int8 tensors holding ONNX uint8 values, zero point lowered by 128 (onnx_qdq.cpp)

 private:
  Graph& graph_;
  int opset_;
  const onnx::NodeProto* node_ = nullptr;
  int index_ = 0;
  int version_ = 0;
  std::map<std::string, Value> values_;
  std::map<int, int> plain_of_;  // NHWC tensor -> its plain copy
  std::map<int, int> nhwc_of_;   // plain tensor -> its NHWC copy
};

// A TensorProto (an initializer, a Constant's value) as a constant named `name`, from raw_data or its typed
// field; `what` names it in errors.
Value tensor_constant(Converter& c, const onnx::TensorProto& t, const std::string& name, const std::string& what);

// The dims of a shape as int32, each refused past the IR's limits.
std::vector<int32_t> to_ir_shape(const std::vector<int64_t>& shape, const std::string& where);
int64_t element_count(const std::vector<int32_t>& shape);
std::vector<int32_t> permuted(const std::vector<int32_t>& shape, const int* perm);
// Data of a rank-4 constant re-laid by perm (element size `bytes`).
std::vector<uint8_t> permute_data(const std::vector<uint8_t>& data, const std::vector<int32_t>& shape,
                                  const std::vector<int>& perm, size_t bytes);
// An axis attribute in [-rank, rank) as a dimension index; refused otherwise.
int normalize_axis(const Converter& c, int64_t axis, size_t rank);

// The converter of an ONNX op_type and the since-versions of it that it implements.
struct OnnxOpEntry {
  const char* op_type;
  std::vector<int> versions;     // every since-version of the operator in ai.onnx, opsets up to 21
  std::vector<int> implemented;  // those whose semantics the converter implements
  ConvertFn convert;
  const char* domain = "";  // "" is ai.onnx; ONNX_CONTRIB_OP lines are "com.microsoft"
};
// One IR op of `kind` over input 0, in its layout: the ONNX_UNARY lines of onnx_op_list.def, and more.
void convert_unary(Converter& c, OpKind kind, OpOptions options = NoOptions{});

// Makes `activation` the fused activation of the float32 op that alone writes and feeds x (the node's input
// 0) and binds the node's output to x; false (nothing changed) where it cannot (onnx_ops_fuse.cpp).
bool fuse_activation(Converter& c, Value x, Activation activation);

// A Gemm's A [M, K] that flattens an NHWC value: that value reshaped (no TRANSPOSE), `w` ([n][k] rows in
// ONNX's (c, h, w) column order) re-laid to (h, w, c); else `a` unchanged (onnx_ops_fuse.cpp).
int flattened_nhwc(Converter& c, int a, std::vector<float>& w, int n, int k);

// Quantized ONNX (onnx_qdq.cpp, onnx_qdq_fuse.cpp).
// Folded weights remember their DequantizeLinear's parameters when these run along the ONNX axis that is
// the output channel (`source_axis`) or are per tensor.
void keep_weight_quant(Graph& graph, int weights, const Quantization& source, int source_axis);
// An int8 op that copies or compares (onnx_qdq_ops.def kShared) gives its result its input's parameters.
void inherit_shared_quant(Converter& c, const Op& op);
// A uint8 graph output computed as its int8 twin: converted at the boundary. Returns the output's tensor.
int uint8_boundary(Converter& c, int id, int onnx_elem_type);
// Each DEQUANTIZE -> float op [-> RELU] -> QUANTIZE group as one int8 op; after the outputs are bound.
void fuse_qdq_groups(Converter& c);

const std::vector<OnnxOpEntry>& onnx_op_table();
// The entry of a node's domain ("" or "ai.onnx", "com.microsoft") and op_type, or nullptr.
const OnnxOpEntry* find_onnx_op(const std::string& domain, const std::string& op_type);

}  // namespace microaot::onnx_detail
