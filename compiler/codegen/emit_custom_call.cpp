// NAME.c's part for operators bound to a user's C function (--custom-op): the header include, each
// call's const tables in flash (tensor descriptions, the options bytes) and its case of the step function,
// which builds the call's argument struct on the stack (the data addresses depend on the arena) and
// returns the function's status.
#include <any>
#include <set>
#include <string>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "ir/custom_op.h"

namespace microaot {

namespace {
const CustomOpOptions& custom_of(const CompiledModel& model, size_t step) {
  return std::any_cast<const CustomOpOptions&>(model.graph.ops[step].options);
}

const char* abi_dtype(DType type) {
  switch (type) {
    case DType::kFloat32: return "MICROAOT_DTYPE_FLOAT32";
    case DType::kInt8: return "MICROAOT_DTYPE_INT8";
    case DType::kUInt8: return "MICROAOT_DTYPE_UINT8";
    case DType::kInt16: return "MICROAOT_DTYPE_INT16";
    case DType::kInt32: return "MICROAOT_DTYPE_INT32";
    case DType::kInt64: return "MICROAOT_DTYPE_INT64";
    case DType::kBool: return "MICROAOT_DTYPE_BOOL";
    case DType::kUnsupported: break;
  }
  return "MICROAOT_DTYPE_FLOAT32";  // not reached: the handler refuses other types
}

// `static const T symbol[n] = {...};` and the symbol, or "NULL" for an empty list.
template <typename T>
std::string const_array(std::string& out, const std::string& type, const std::string& symbol, const std::vector<T>& v) {
  if (v.empty()) return "NULL";
  out += "static const " + type + " " + symbol + "[" + std::to_string(v.size()) + "] = {\n" + c_initializer(v) + "};\n";
  return symbol;
}

// One tensor's microaot_custom_tensor_info, after the arrays it points to.
std::string tensor_info(const Tensor& t, const std::string& symbol) {
  std::string out;
  const std::vector<int64_t> dims(t.shape.begin(), t.shape.end());
  const std::string dims_symbol = const_array(out, "int32_t", symbol + "_dims", dims);
  const std::string scales = const_array(out, "float", symbol + "_scales", t.quant.scale);
  const std::string zero_points = const_array(out, "int32_t", symbol + "_zero_points", t.quant.zero_point);
  out += "static const microaot_custom_tensor_info " + symbol + " = {" + abi_dtype(t.dtype) + ", " +
         std::to_string(t.shape.size()) + ", " + dims_symbol + ", " + std::to_string(t.num_elements()) + ", " +
         std::to_string(t.quant.scale.size()) + ", " + scales + ", " + zero_points + ", " +
         std::to_string(t.quant.axis) + "};\n";
  return out;
}

// "{data, &info}" for one tensor of the call; "{NULL, NULL}" for an absent optional input.
std::string tensor_entry(const CompiledModel& model, int id, const std::string& info, bool output) {
  if (id == kNoTensor) return "{NULL, NULL}";
  const Tensor& t = model.graph.tensor(id);
  const std::string qualifier = output ? "" : "const ";
  const std::string data = t.is_constant ? "(const void *)" + constant_symbol(model, id)
                                         : "(" + qualifier + "void *)(" + planned_address(model, id) + ")";
  return "{" + data + ", &" + info + "}";
}

// `const T name[n] = {...};` in the case's block, returning "name, nu" (or "NULL, 0u" when empty).
std::string entry_array(std::string& out, const std::string& type, const std::string& name,
                        const std::vector<std::string>& entries) {
  if (entries.empty()) return "NULL, 0u";
  out += "      const " + type + " " + name + "[" + std::to_string(entries.size()) + "] = {";
  for (size_t i = 0; i < entries.size(); ++i) out += (i == 0 ? "" : ", ") + entries[i];
  out += "};\n";
  return name + ", " + std::to_string(entries.size()) + "u";
}
}  // namespace

std::string custom_includes(const CompiledModel& model) {
  std::set<std::string> headers;
  for (size_t step = 0; step < model.calls.size(); ++step) {
    if (model.calls[step].custom) headers.insert(custom_header_output_path(custom_of(model, step).binding));
  }
  std::string out;
  for (const std::string& h : headers) out += "#include \"" + h + "\" /* --custom-op: the user's header */\n";
  return out;
}

std::string custom_call_tables(const CompiledModel& model, size_t step, const std::string& symbol) {
  const Op& op = model.graph.ops[step];
  std::string out;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    if (op.inputs[i] != kNoTensor) out += tensor_info(model.graph.tensor(op.inputs[i]), symbol + "_in" + std::to_string(i));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    out += tensor_info(model.graph.tensor(op.outputs[i]), symbol + "_out" + std::to_string(i));
  }
  const std::vector<uint8_t>& bytes = custom_of(model, step).options;
  const_array(out, "uint8_t", symbol + "_options", std::vector<int64_t>(bytes.begin(), bytes.end()));
  return out;
}

std::string custom_call_case(const CompiledModel& model, size_t step, const std::string& symbol) {
  const Op& op = model.graph.ops[step];
  const CustomOpOptions& custom = custom_of(model, step);
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    inputs.push_back(tensor_entry(model, op.inputs[i], symbol + "_in" + std::to_string(i), false));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    outputs.push_back(tensor_entry(model, op.outputs[i], symbol + "_out" + std::to_string(i), true));
  }
  std::string out = "    case " + std::to_string(step) + "u: { /* " + c_comment_text(describe_op(model.graph, op)) + " */\n";
  const std::string in_list = entry_array(out, "microaot_custom_input", "inputs", inputs);
  const std::string out_list = entry_array(out, "microaot_custom_output", "outputs", outputs);
  const std::string options = custom.options.empty() ? "NULL, 0u"
                                                      : symbol + "_options, " + std::to_string(custom.options.size()) + "u";
  const int64_t scratch = model.calls[step].scratch_bytes;
  const std::string scratch_text = scratch > 0 ? scratch_argument(model, step) + ", " + std::to_string(scratch) + "u"
                                               : "NULL, 0u";
  out += "      const microaot_custom_op_args args = {" + in_list + ", " + out_list + ", " + options + ", " +
         scratch_text + "};\n      return " + custom.binding.function + "(&args);\n    }\n";
  return out;
}

}  // namespace microaot
