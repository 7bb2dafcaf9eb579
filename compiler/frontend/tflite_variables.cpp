// Resource variables, as streaming exports use them (TFLM's var_handle.cc, read_variable.cc,
// assign_variable.cc, call_once.cc, micro_resource_variable.cc):
// - VAR_HANDLE names a variable by container and shared name; handles with the same names are one
//   variable (an absent container matches any, as TFLM's lookup does). The reader gives each variable one
//   IR tensor, persistent across runs, and drops the VAR_HANDLE ops.
// - READ_VARIABLE and ASSIGN_VARIABLE become copies from and to that tensor.
// - CALL_ONCE runs an initialisation subgraph before the first run. microaot evaluates it at compile
//   time: it may only assign constants to variables, and those bytes are the variables' initial value
//   (what init and reset write). Anything else in it is refused, naming the operator and the subgraph.
// A variable starts as TFLM allocates it: every byte the zero point of the first value assigned to it (in
// subgraph order), then the initialisation's assignments.
#include <algorithm>
#include <map>
#include <string>

#include "frontend/builtin_names.h"
#include "frontend/tflite_internal.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {

namespace {
constexpr int kCallOnceCode = 129;
constexpr int kVarHandleCode = 142;
constexpr int kAssignVariableCode = 144;

struct Variable {
  const flatbuffers::String* container = nullptr;  // nullptr: absent
  std::string shared_name;
  int tensor = -1;      // its IR tensor (the first main-subgraph handle), -1 when main has no handle
  bool typed = false;   // an assignment gave it a type and shape
};

struct Variables {
  std::vector<Variable> list;
  std::map<int, size_t> of_handle;  // a VAR_HANDLE output (main subgraph tensor) -> variable
};

bool same_container(const flatbuffers::String* a, const flatbuffers::String* b) {
  return a == nullptr || b == nullptr || a->str() == b->str();
}

// The variable VAR_HANDLE `op` names, created on first sight.
size_t variable_of(Variables& vars, const tflite::Operator& op, const std::string& where) {
  const auto* options = op.builtin_options_as_VarHandleOptions();
  if (options == nullptr || options->shared_name() == nullptr) {
    throw CompileError(where + ": VAR_HANDLE without a shared name");
  }
  const std::string name = options->shared_name()->str();
  for (size_t i = 0; i < vars.list.size(); ++i) {
    if (vars.list[i].shared_name == name && same_container(vars.list[i].container, options->container())) return i;
  }
  vars.list.push_back({options->container(), name, -1, false});
  return vars.list.size() - 1;
}

int code_of(const tflite::Model& model, const tflite::Operator& op, size_t index) {
  return builtin_code(opcode_of(model, op, index));
}

std::string op_name(const tflite::Model& model, const tflite::Operator& op, size_t index) {
  return operator_code_name(opcode_of(model, op, index)) + " (op " + std::to_string(index) + ")";
}

// The first assignment gives the variable its type, shape and the bytes it starts from.
void type_variable(Variable& var, Tensor& storage, const Tensor& value, const std::string& where) {
  if (value.dtype == DType::kUnsupported) {
    throw CompileError(where + ": the value assigned has a type microaot does not support");
  }
  storage.dtype = value.dtype;
  storage.shape = value.shape;
  storage.quant = value.quant;
  const int64_t zero_point = value.quant.empty() ? 0 : value.quant.zero_point[0];
  storage.data.assign(static_cast<size_t>(value.byte_size()), static_cast<uint8_t>(static_cast<int8_t>(zero_point)));
  storage.is_persistent = true;
  var.typed = true;
}

void check_value_fits(const Tensor& storage, const Tensor& value, const std::string& where) {
  if (value.dtype != storage.dtype || value.byte_size() != storage.byte_size()) {
    throw CompileError(where + ": the value assigned is " + std::string(dtype_name(value.dtype)) + " of " +
                       std::to_string(value.byte_size()) + " bytes, but the variable holds " +
                       dtype_name(storage.dtype) + " of " + std::to_string(storage.byte_size()) + " bytes");
  }
}

// The main subgraph: handles to variables, READ_VARIABLE/ASSIGN_VARIABLE rewritten onto the variables'
// tensors, init subgraphs collected.
std::vector<int> link_main(const tflite::Model& model, const tflite::SubGraph& main, Variables& vars, Graph& graph) {
  std::vector<int> init_subgraphs;
  const auto* ops = main.operators();
  for (uint32_t i = 0; ops != nullptr && i < ops->size(); ++i) {
    const tflite::Operator& op = *ops->Get(i);
    const int code = code_of(model, op, i);
    const std::string where = op_name(model, op, i);
    if (code == kCallOnceCode) {
      const auto* options = op.builtin_options_as_CallOnceOptions();
      if (options == nullptr) throw CompileError(where + ": missing CallOnceOptions");
      init_subgraphs.push_back(options->init_subgraph_index());
    }
    if (code != kVarHandleCode) continue;
    if (op.outputs() == nullptr || op.outputs()->size() != 1) throw CompileError(where + ": needs one output");
    const int handle = op.outputs()->Get(0);
    if (handle < 0 || static_cast<size_t>(handle) >= graph.tensors.size()) {
      throw CompileError("malformed .tflite model: output of " + where + " is out of range");
    }
    const size_t v = variable_of(vars, op, where);
    vars.of_handle[handle] = v;
    if (vars.list[v].tensor < 0) vars.list[v].tensor = handle;
  }
  return init_subgraphs;
}

// The variable a READ_VARIABLE or ASSIGN_VARIABLE reaches through its input 0.
Variable& handle_variable(Variables& vars, const Graph& graph, const Op& op) {
  const int handle = op.inputs.empty() ? kNoTensor : op.inputs[0];
  const auto found = vars.of_handle.find(handle);
  if (found == vars.of_handle.end()) {
    throw CompileError(describe_op(graph, op) + ": input 0" +
                       (handle == kNoTensor ? std::string(" is absent") : " " + describe_tensor(graph, handle)) +
                       " is not the output of a VAR_HANDLE of the main subgraph");
  }
  return vars.list[found->second];
}

void rewrite_variable_ops(Variables& vars, Graph& graph) {
  for (Op& op : graph.ops) {
    if (op.kind != OpKind::ReadVariable && op.kind != OpKind::AssignVariable) continue;
    Variable& var = handle_variable(vars, graph, op);
    if (op.kind == OpKind::ReadVariable) {
      op.inputs = {var.tensor};
      continue;
    }
    if (op.inputs.size() != 2 || op.inputs[1] == kNoTensor || !op.outputs.empty()) {
      throw CompileError(describe_op(graph, op) + ": needs 2 inputs (handle, value) and no output");
    }
    const int value = op.inputs[1];
    Tensor& storage = graph.tensor(var.tensor);
    if (!var.typed) type_variable(var, storage, graph.tensor(value), describe_op(graph, op));
    check_value_fits(storage, graph.tensor(value), describe_op(graph, op));
    op.inputs = {value};
    op.outputs = {var.tensor};
  }
}

// An initialisation subgraph: VAR_HANDLE and ASSIGN_VARIABLE of constants only, evaluated here.
void evaluate_init(const tflite::Model& model, int index, const std::vector<uint8_t>& file, Variables& vars,
                   Graph& graph) {
  const auto* subgraphs = model.subgraphs();
  if (index <= 0 || subgraphs == nullptr || static_cast<uint32_t>(index) >= subgraphs->size() ||
      subgraphs->Get(static_cast<uint32_t>(index)) == nullptr) {
    throw CompileError("CALL_ONCE names subgraph " + std::to_string(index) + ", which is not an initialisation "
                       "subgraph of the model");
  }
  const tflite::SubGraph& init = *subgraphs->Get(static_cast<uint32_t>(index));
  const std::string sub = "subgraph " + std::to_string(index) + (init.name() ? " '" + init.name()->str() + "'" : "");
  check_expansion(model, init, file.size());
  Graph constants;
  convert_tensors(model, init, file, constants);
  std::map<int, size_t> handles;
  const auto* ops = init.operators();
  for (uint32_t i = 0; ops != nullptr && i < ops->size(); ++i) {
    const tflite::Operator& op = *ops->Get(i);
    const int code = code_of(model, op, i);
    const std::string where = op_name(model, op, i) + " of " + sub;
    const auto* in = op.inputs();
    const auto* out = op.outputs();
    if (code == kVarHandleCode && out != nullptr && out->size() == 1) {
      handles[out->Get(0)] = variable_of(vars, op, where);
      continue;
    }
    const bool assign = code == kAssignVariableCode && in != nullptr && in->size() == 2 && handles.count(in->Get(0));
    const int value = assign ? in->Get(1) : -1;
    if (!assign || value < 0 || static_cast<size_t>(value) >= constants.tensors.size() ||
        !constants.tensors[value].is_constant || constants.tensors[value].dtype == DType::kUnsupported) {
      throw CompileError(where + ": microaot evaluates initialisation subgraphs at compile time and takes only "
                         "VAR_HANDLE and ASSIGN_VARIABLE of a constant there");
    }
    Variable& var = vars.list[handles[in->Get(0)]];
    if (var.tensor < 0) continue;  // the main subgraph never uses it
    Tensor& storage = graph.tensor(var.tensor);
    if (!var.typed) type_variable(var, storage, constants.tensors[value], where);
    check_value_fits(storage, constants.tensors[value], where);
    storage.data = constants.tensors[value].data;
  }
}
}  // namespace

bool is_reader_handled_code(int code) { return code == kCallOnceCode || code == kVarHandleCode; }

void resolve_variables(const tflite::Model& model, const tflite::SubGraph& main, const std::vector<uint8_t>& file,
                       Graph& graph) {
  Variables vars;
  const std::vector<int> init_subgraphs = link_main(model, main, vars, graph);
  rewrite_variable_ops(vars, graph);
  // Each initialisation once, in order of first call (a subgraph CALL_ONCE names again changes nothing).
  std::vector<int> evaluated;
  for (int index : init_subgraphs) {
    if (std::find(evaluated.begin(), evaluated.end(), index) != evaluated.end()) continue;
    evaluate_init(model, index, file, vars, graph);
    evaluated.push_back(index);
  }
  for (const auto& [handle, v] : vars.of_handle) {
    const Variable& var = vars.list[v];
    if (!var.typed) {
      throw CompileError("resource variable '" + var.shared_name + "' " + describe_tensor(graph, handle) +
                         " is never assigned, so it has no type and size");
    }
    if (handle != var.tensor) graph.tensor(handle).is_dead = true;  // a second handle to the same variable
  }
}

}  // namespace tflite_detail
}  // namespace microaot
