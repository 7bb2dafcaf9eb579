// The ONNX reader's pipeline: parse the ModelProto (protobuf, from libonnx-dev), check the opset and that
// every node's operator version is implemented (all refusals in one error), convert initializers and
// inputs, sort the nodes (refusing a cycle), convert each node, then give each graph output its ONNX layout.
#include "frontend/onnx_reader.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "frontend/onnx_internal.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
using namespace onnx_detail;

constexpr int kMinOpset = 1;  // older opsets too: each node is checked against its operator's own versions
constexpr int kMaxOpset = 21;  // the newest opset whose operator versions onnx_op_list.def records

onnx::ModelProto parse_model(const std::vector<uint8_t>& bytes) {
  onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw CompileError("malformed ONNX model: the file is not a valid ModelProto (truncated or corrupt protobuf)");
  }
  if (model.ir_version() <= 0 || !model.has_graph()) {
    throw CompileError("malformed ONNX model: no ir_version or no graph");
  }
  return model;
}

int ai_onnx_opset(const onnx::ModelProto& model) {
  int opset = -1;
  for (const onnx::OperatorSetIdProto& id : model.opset_import()) {
    if (id.domain().empty() || id.domain() == "ai.onnx") opset = static_cast<int>(std::min<int64_t>(id.version(), 1000));
  }
  if (opset < 0) throw CompileError("ONNX model imports no ai.onnx opset");
  if (opset < kMinOpset || opset > kMaxOpset) {
    throw CompileError("ONNX model uses opset " + std::to_string(opset) + "; microaot reads opsets " +
                       std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) +
                       " (convert it with onnx.version_converter)");
  }
  return opset;
}

// The since-version of the operator that `opset` selects: the newest one not after it.
int since_version(const OnnxOpEntry& entry, int opset) {
  int version = 0;
  for (int v : entry.versions) {
    if (v <= opset) version = std::max(version, v);
  }
  return version;
}

std::string node_label(const onnx::NodeProto& node, int index) {
  return "'" + (node.name().empty() ? "#" + std::to_string(index) : node.name()) + "' (" +
         (node.domain().empty() ? "" : node.domain() + ".") + node.op_type();
}

// Every node whose operator or operator version microaot lacks, refused in one error.
std::vector<int> resolve_versions(const onnx::GraphProto& graph, int opset) {
  std::vector<int> versions;
  std::string refused;
  int count = 0;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    const OnnxOpEntry* entry = find_onnx_op(node.domain(), node.op_type());
    const int version = entry != nullptr ? since_version(*entry, opset) : 0;
    versions.push_back(version);
    const bool known = entry != nullptr && version > 0 &&
                       std::count(entry->implemented.begin(), entry->implemented.end(), version) > 0;
    if (known) continue;
    if (++count <= 20) {
      refused += "\n  node " + node_label(node, i) + ", opset " + std::to_string(opset) +
                 (entry == nullptr ? "): operator not supported"
                                   : ", version " + std::to_string(version) + "): this version is not supported");
    }
  }
  if (count > 0) {
    throw CompileError("ONNX model has " + std::to_string(count) + " node(s) microaot cannot compile:" + refused +
                       (count > 20 ? "\n  ..." : "") + "\n(docs/onnx.md lists the supported operators)");
  }
  return versions;
}

DType dtype_of(int32_t onnx_type, const std::string& what) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT: return DType::kFloat32;
    case onnx::TensorProto::INT64: return DType::kInt64;
    case onnx::TensorProto::INT32: return DType::kInt32;
    case onnx::TensorProto::BOOL: return DType::kBool;
    case onnx::TensorProto::INT8: return DType::kInt8;
    case onnx::TensorProto::UINT8: return DType::kUInt8;
    case onnx::TensorProto::INT16: return DType::kInt16;
    default: break;
  }
  throw CompileError(what + " has ONNX element type " + std::to_string(onnx_type) +
                     ", which microaot does not support (float32, int64, int32, int16, int8, uint8, bool)");
}

// The elements of a TensorProto, from raw_data or its typed field, as little-endian IR bytes.
std::vector<uint8_t> tensor_bytes(const onnx::TensorProto& t, DType dtype, int64_t elements, const std::string& what) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL || t.external_data_size() > 0) {
    throw CompileError(what + " keeps its data in an external file; microaot reads self-contained models only "
                       "(save it with onnx.save_model(..., save_as_external_data=False))");
  }
  if (t.has_segment()) throw CompileError(what + " is a segmented tensor, which microaot does not read");
  const size_t size = dtype_size(dtype);
  const size_t want = static_cast<size_t>(elements) * size;
  std::vector<uint8_t> bytes(want);
  if (t.has_raw_data()) {
    if (t.raw_data().size() != want) {
      throw CompileError(what + " has " + std::to_string(t.raw_data().size()) + " bytes of data, its shape needs " +
                         std::to_string(want));
    }
    if (want > 0) std::memcpy(bytes.data(), t.raw_data().data(), want);
    return bytes;
  }
  const auto count_error = [&](int n) {
    return CompileError(what + " has " + std::to_string(n) + " values, its shape needs " + std::to_string(elements));
  };
  if (dtype == DType::kFloat32) {
    if (t.float_data_size() != elements) throw count_error(t.float_data_size());
    if (want > 0) std::memcpy(bytes.data(), t.float_data().data(), want);
  } else if (dtype == DType::kInt64) {
    if (t.int64_data_size() != elements) throw count_error(t.int64_data_size());
    if (want > 0) std::memcpy(bytes.data(), t.int64_data().data(), want);
  } else {  // int32, int16, int8, uint8, bool: int32_data
    if (t.int32_data_size() != elements) throw count_error(t.int32_data_size());
    for (int64_t i = 0; i < elements; ++i) {
      const int32_t v = t.int32_data(static_cast<int>(i));
      std::memcpy(&bytes[static_cast<size_t>(i) * size], &v, size);
    }
  }
  return bytes;
}

Value add_initializer(Converter& c, const onnx::TensorProto& t) {
  return tensor_constant(c, t, t.name(), "ONNX initializer '" + t.name() + "'");
}

// A graph input's shape: its fixed dims, --input-shape's, or 1 for a symbolic leading batch.
std::vector<int32_t> input_shape(const onnx::ValueInfoProto& input, const OnnxReadOptions& options, Graph& graph) {
  const std::string what = "ONNX graph input '" + input.name() + "'";
  if (!input.type().has_tensor_type()) throw CompileError(what + " is not a tensor");
  const onnx::TensorShapeProto& shape = input.type().tensor_type().shape();
  const auto fixed = options.input_shapes.find(input.name());
  if (fixed != options.input_shapes.end()) {  // must keep the rank and every fixed dimension
    bool fits = static_cast<int>(fixed->second.size()) == shape.dim_size();
    for (int d = 0; fits && d < shape.dim_size(); ++d) {
      fits = !shape.dim(d).has_dim_value() || shape.dim(d).dim_value() == fixed->second[static_cast<size_t>(d)];
    }
    if (!fits) throw CompileError(what + ": --input-shape contradicts the model's rank or fixed dimensions");
    return to_ir_shape({fixed->second.begin(), fixed->second.end()}, what);
  }
  std::vector<int64_t> dims;
  for (int d = 0; d < shape.dim_size(); ++d) {
    const onnx::TensorShapeProto::Dimension& dim = shape.dim(d);
    if (dim.has_dim_value() && dim.dim_value() > 0) {
      dims.push_back(dim.dim_value());
    } else if (d == 0 && shape.dim_size() > 1) {
      dims.push_back(1);  // a symbolic batch: one sample per run, said in the description (network_info.txt)
      graph.description += "; symbolic batch of input '" + input.name() + "' ('" + dim.dim_param() + "') taken as 1";
    } else {
      throw CompileError(what + " has a symbolic or unknown dimension " + std::to_string(d) + " ('" +
                         dim.dim_param() + "'); fix it with --input-shape " + input.name() + "=1x...");
    }
  }
  return to_ir_shape(dims, what);
}

void add_inputs(Converter& c, const onnx::GraphProto& g, const OnnxReadOptions& options) {
  std::set<std::string> initializers;
  for (const onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
  for (const auto& [name, shape] : options.input_shapes) {
    bool found = false;
    for (const onnx::ValueInfoProto& input : g.input()) found = found || (input.name() == name && initializers.count(name) == 0);
    if (!found) throw CompileError("--input-shape names '" + name + "', which is not an input of the ONNX graph");
  }
  for (const onnx::ValueInfoProto& input : g.input()) {
    if (initializers.count(input.name()) != 0) continue;  // an initializer listed as input (IR version < 4)
    const DType dtype = dtype_of(input.type().tensor_type().elem_type(), "ONNX graph input '" + input.name() + "'");
    std::vector<int32_t> shape = input_shape(input, options, c.graph());
    const bool nhwc = options.nhwc_io && shape.size() == 4;
    if (nhwc) shape = permuted(shape, kToNhwc);
    const int id = c.add_tensor(dtype, shape, input.name());
    c.define_value(input.name(), {id, nhwc});
    c.graph().inputs.push_back(id);
  }
}

// The nodes in an order where each runs after the producers of its inputs; a cycle is refused.
std::vector<int> topological_order(const onnx::GraphProto& g, const Converter& c) {
  std::map<std::string, int> producer;
  for (int i = 0; i < g.node_size(); ++i) {
    for (const std::string& out : g.node(i).output()) {
      if (!out.empty()) producer[out] = i;
    }
  }
  std::vector<int> order;
  std::vector<int> state(static_cast<size_t>(g.node_size()), 0);  // 0 new, 1 on the stack, 2 placed
  for (int root = 0; root < g.node_size(); ++root) {
    std::vector<std::pair<int, int>> stack = {{root, 0}};  // node, next input to visit
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == 0 && state[static_cast<size_t>(node)] == 2) {
        stack.pop_back();
        continue;
      }
      state[static_cast<size_t>(node)] = 1;
      if (next < g.node(node).input_size()) {
        const std::string& in = g.node(node).input(next++);
        const auto p = producer.find(in);
        if (p == producer.end() || c.has_value(in)) continue;
        if (state[static_cast<size_t>(p->second)] == 1) {
          throw CompileError("ONNX graph is cyclic: node " + node_label(g.node(p->second), p->second) +
                             ") depends on its own output '" + in + "'");
        }
        if (state[static_cast<size_t>(p->second)] == 0) stack.push_back({p->second, 0});
        continue;
      }
      state[static_cast<size_t>(node)] = 2;
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

void count_consumers(Converter& c, const onnx::GraphProto& g) {
  for (const onnx::NodeProto& node : g.node()) {
    for (const std::string& in : node.input()) ++c.consumers[in];
  }
  for (const onnx::ValueInfoProto& out : g.output()) ++c.consumers[out.name()];
}

// What network_info.txt says of a rank-4 graph input or output's layout: as given (the kernels' NHWC, or NCHW
// the model reads as it is), or changed at the boundary by the op the converter made.
void describe_boundary(Converter& c, int id, bool nhwc, bool input, const std::string& name) {
  if (c.graph().tensor(id).shape.size() != 4) return;
  std::string text = std::string("; ") + (input ? "input '" : "output '") + name + "' " +
                     (nhwc ? "NHWC (--io-layout nhwc)" : "NCHW");
  if (const Op* change = c.layout_change_of(id)) {
    const bool moves = change->kind == OpKind::Transpose;
    text += std::string(moves ? ", a TRANSPOSE" : ", a RESHAPE") + (input ? " to " : " from ") +
            (nhwc ? "NCHW" : "NHWC");
    if (!moves) {
      text += " (only dimensions of 1 move: no data does)";
    } else if (nhwc) {
      text += input ? ": the model reads it in NCHW" : ": the model computes it in NCHW";
    } else {
      text += input ? " (--io-layout nhwc takes it in NHWC)" : " (--io-layout nhwc gives it in NHWC)";
    }
  }
  c.graph().description += text;
}

void add_outputs(Converter& c, const onnx::GraphProto& g, bool nhwc_io) {
  for (const onnx::ValueInfoProto& out : g.output()) {
    const Value v = c.value(out.name());
    const bool nhwc = nhwc_io && c.tensor(v).shape.size() == 4;
    const int laid = nhwc ? c.nhwc(v) : c.plain(v);
    describe_boundary(c, v.id, nhwc, /*input=*/false, out.name());
    const int id = uint8_boundary(c, laid, out.type().tensor_type().elem_type());
    Tensor& t = c.graph().tensor(id);
    if (t.is_constant) {
      throw CompileError("ONNX graph output '" + out.name() + "' is a constant; outputs computed at compile "
                         "time are not supported");
    }
    if (std::find(c.graph().inputs.begin(), c.graph().inputs.end(), id) != c.graph().inputs.end()) {
      throw CompileError("ONNX graph output '" + out.name() + "' is a graph input; microaot needs an operator between");
    }
    if (v.nhwc && !nhwc) c.graph().tensor(v.id).name = out.name() + " (NHWC)";
    if (!v.nhwc && nhwc) c.graph().tensor(v.id).name = out.name() + " (NCHW)";
    t.name = out.name();
    c.graph().outputs.push_back(id);
  }
}
}  // namespace

namespace onnx_detail {
Value tensor_constant(Converter& c, const onnx::TensorProto& t, const std::string& name, const std::string& what) {
  const DType dtype = dtype_of(t.data_type(), what);
  const std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  const std::vector<int32_t> shape = to_ir_shape(dims, what);
  return c.constant(dtype, shape, tensor_bytes(t, dtype, element_count(shape), what), name);
}
}  // namespace onnx_detail

bool looks_like_onnx(const std::vector<uint8_t>& bytes) {
  const bool tflite = bytes.size() >= 8 && std::memcmp(bytes.data() + 4, "TFL3", 4) == 0;
  // ir_version 3 (ONNX 1.1) and later; a SavedModel's saved_model.pb starts the same way with version 1.
  return !tflite && bytes.size() > 1 && bytes[0] == 0x08 && bytes[1] >= 3;
}

std::vector<uint8_t> read_onnx_tensor(const std::vector<uint8_t>& bytes, DType& dtype) {
  onnx::TensorProto t;
  if (bytes.size() > (size_t{1} << 31) || !t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw CompileError("malformed ONNX tensor: not a valid TensorProto");
  }
  const std::string what = "ONNX tensor '" + t.name() + "'";
  dtype = dtype_of(t.data_type(), what);
  const std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  return tensor_bytes(t, dtype, element_count(to_ir_shape(dims, what)), what);
}

Graph read_onnx(const std::vector<uint8_t>& bytes, const OnnxReadOptions& options) {
  const onnx::ModelProto model = parse_model(bytes);
  const int opset = ai_onnx_opset(model);
  const onnx::GraphProto& g = model.graph();
  const std::vector<int> versions = resolve_versions(g, opset);
  Graph graph;
  graph.description = (model.producer_name().empty() ? "ONNX model" : "ONNX model from " + model.producer_name()) +
                      ", opset " + std::to_string(opset) +
                      (options.nhwc_io ? "; rank-4 inputs and outputs in NHWC (--io-layout nhwc)"
                                       : "; inputs and outputs in the model's own layout") +
                      ", NCHW values in NHWC between convolutions";
  Converter c(graph, opset);
  for (const onnx::TensorProto& t : g.initializer()) c.define_value(t.name(), add_initializer(c, t));
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) {
    throw CompileError("ONNX sparse initializer '" + t.values().name() + "' is not supported");
  }
  add_inputs(c, g, options);
  count_consumers(c, g);
  for (int index : topological_order(g, c)) {
    const onnx::NodeProto& node = g.node(index);
    c.start_node(node, index, versions[static_cast<size_t>(index)]);
    find_onnx_op(node.domain(), node.op_type())->convert(c);
    for (size_t i = 0; i < c.num_outputs(); ++i) {
      if (!c.output_name(i).empty() && !c.has_value(c.output_name(i))) c.refuse("output " + std::to_string(i) + " is not supported");
    }
  }
  for (const onnx::ValueInfoProto& input : g.input()) {
    if (!c.has_value(input.name()) || c.is_constant(c.value(input.name()))) continue;  // an initializer
    const Value v = c.value(input.name());
    describe_boundary(c, v.id, v.nhwc, /*input=*/true, input.name());
  }
  add_outputs(c, g, options.nhwc_io);
  fuse_qdq_groups(c);
  return graph;
}

}  // namespace microaot
