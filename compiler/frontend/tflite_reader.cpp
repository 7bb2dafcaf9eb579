// The reader's pipeline: verify the flatbuffer, bound what it expands to, resolve operator kinds (refusing
// unsupported ones all at once), convert tensors, operators and their options, then check the data flow.
#include "frontend/tflite_reader.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "frontend/builtin_names.h"
#include "frontend/tflite_internal.h"
#include "ops/op_handler.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
using namespace tflite_detail;
using IndexList = flatbuffers::Vector<int32_t>;

// A tensor index from the file as an IR id, checked to be in range; -1 is kNoTensor where allowed.
int tensor_id(int32_t index, const Graph& graph, bool allow_absent, const std::string& where) {
  if (allow_absent && index == -1) return kNoTensor;
  if (index < 0 || static_cast<size_t>(index) >= graph.tensors.size()) {
    throw CompileError("malformed .tflite model: " + where + " is tensor index " + std::to_string(index) +
                       ", but the subgraph has " + std::to_string(graph.tensors.size()) + " tensors");
  }
  return index;
}

std::vector<int> tensor_ids(const IndexList* list, const Graph& graph, bool allow_absent, const std::string& what) {
  std::vector<int> ids;
  if (list == nullptr) return ids;
  for (uint32_t i = 0; i < list->size(); ++i) {
    ids.push_back(tensor_id(list->Get(i), graph, allow_absent, what + " " + std::to_string(i)));
  }
  return ids;
}

// The IR options of an op bound to a user's function: the binding and the custom_options bytes, verbatim
// (bounded by the file; check_expansion counted them). Nothing in them is interpreted.
CustomOpOptions custom_options(const tflite::Operator& source, const tflite::OperatorCode& code,
                               const CustomOpBinding& binding) {
  CustomOpOptions custom;
  custom.binding = binding;
  if (builtin_code(code) != kTfliteCustomCode) custom.replaced_builtin = binding.name;
  if (const auto* bytes = source.custom_options(); bytes != nullptr && custom.replaced_builtin.empty()) {
    custom.options.assign(bytes->begin(), bytes->end());
  }
  return custom;
}

void convert_ops(const tflite::Model& model, const tflite::SubGraph& subgraph, const std::vector<ResolvedOp>& resolved,
                 const CustomOpBindings& bindings, Graph& graph) {
  for (size_t i = 0; i < resolved.size(); ++i) {
    if (resolved[i].by_reader) continue;  // CALL_ONCE, VAR_HANDLE: resolve_variables; TFLM_DECODE: folded
    const tflite::Operator& source = *subgraph.operators()->Get(static_cast<uint32_t>(i));
    Op op;
    op.kind = resolved[i].kind;
    op.source_index = static_cast<int>(i);
    op.version = resolved[i].version;
    const std::string name = describe_op(graph, op);
    op.inputs = tensor_ids(source.inputs(), graph, true, "input of " + name + ", position");
    op.outputs = tensor_ids(source.outputs(), graph, false, "output of " + name + ", position");
    const OpHandler& handler = op_handler(op.kind);
    op.options = handler.read_options ? handler.read_options(graph, op, source) : OpOptions(NoOptions{});
    if (resolved[i].binding >= 0) {  // OpKind::Custom, whose handler reads no options table
      const CustomOpBinding& binding = bindings[static_cast<size_t>(resolved[i].binding)];
      op.options = custom_options(source, opcode_of(model, source, i), binding);
    }
    graph.ops.push_back(std::move(op));
  }
}
}  // namespace

Graph read_tflite(const std::vector<uint8_t>& bytes, const CustomOpBindings& custom_ops) {
  const tflite::Model& model = verify_model(bytes);
  check_not_compressed(model);
  const tflite::SubGraph& subgraph = main_subgraph(model);
  check_expansion(model, subgraph, bytes.size());
  const std::vector<ResolvedOp> resolved = resolve_operators(model, subgraph, custom_ops);
  Graph graph;
  if (model.description() != nullptr) graph.description = model.description()->str();
  convert_tensors(model, subgraph, bytes, graph);
  graph.inputs = tensor_ids(subgraph.inputs(), graph, false, "graph input");
  fold_tflm_decodes(model, subgraph, graph);
  graph.outputs = tensor_ids(subgraph.outputs(), graph, false, "graph output");
  convert_ops(model, subgraph, resolved, custom_ops, graph);
  resolve_variables(model, subgraph, bytes, graph);
  check_dataflow(graph, subgraph);
  return graph;
}

Graph read_tflite_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw CompileError("cannot read model file '" + path + "': " + (error ? error.message() : "not a regular file"));
  }
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw CompileError("cannot read model file '" + path + "': " + error.message());
  if (size > kMaxModelBytes) {
    throw CompileError("model file '" + path + "' is " + std::to_string(size) +
                       " bytes; microaot reads models up to 2 GiB");
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  std::ifstream file(path, std::ios::binary);
  if (!file || !file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size))) {
    throw CompileError("cannot read model file '" + path + "'");
  }
  return read_tflite(bytes);
}

}  // namespace microaot
