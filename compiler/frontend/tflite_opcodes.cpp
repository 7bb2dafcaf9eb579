// Operator codes -> IR kinds. Every operator microaot cannot compile is collected first so that the user
// sees the whole list in one error, not one operator per attempt.
#include <algorithm>
#include <optional>
#include <string>

#include "frontend/builtin_names.h"
#include "frontend/tflite_internal.h"
#include "frontend/unsupported_advice.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {

namespace {
struct KindByCode {
  int code;
  OpKind kind;
};
constexpr KindByCode kSupported[] = {
#define MICROAOT_OP(kind, tflite_name, code, handler, options, family, data_input, types) {code, OpKind::kind},
#include "ir/op_list.def"
#undef MICROAOT_OP
};

std::optional<OpKind> kind_of(int code) {
  for (const KindByCode& entry : kSupported) {
    if (entry.code == code) return entry.kind;
  }
  return std::nullopt;
}
}  // namespace

// Codes above 127 only fit the int32 field; older files only fill the byte field. The format's rule is
// to take the larger of the two.
int builtin_code(const tflite::OperatorCode& code) {
  return std::max<int>(code.deprecated_builtin_code(), code.builtin_code());
}

std::string operator_code_name(const tflite::OperatorCode& code) {
  const int value = builtin_code(code);
  if (value == kTfliteCustomCode) {
    return code.custom_code() ? "custom operator '" + code.custom_code()->str() + "'"
                              : std::string("custom operator (no name)");
  }
  const char* name = tflite_builtin_name(value);
  return name ? name : "unknown builtin operator";
}

bool is_compilable_code(int code) { return kind_of(code).has_value() || is_reader_handled_code(code); }

const tflite::OperatorCode& opcode_of(const tflite::Model& model, const tflite::Operator& op, size_t index) {
  const auto* codes = model.operator_codes();
  const uint32_t at = op.opcode_index();
  if (codes == nullptr || at >= codes->size()) {
    throw CompileError("malformed .tflite model: op " + std::to_string(index) + " uses operator code " +
                       std::to_string(at) + " but the model has " +
                       std::to_string(codes ? codes->size() : 0) + " operator codes");
  }
  return *codes->Get(at);
}

namespace {
// "LSTM (code 16)", "custom operator 'Foo'", "unknown builtin operator (code 300)".
std::string name_of(const tflite::OperatorCode& code) {
  const int value = builtin_code(code);
  if (value == kTfliteCustomCode) return operator_code_name(code);
  return operator_code_name(code) + " (code " + std::to_string(value) + ")";
}
}  // namespace

namespace {
// The name a binding gives an operator: a CUSTOM op's custom_code, a builtin's name; "" for neither.
std::string bindable_name(const tflite::OperatorCode& code) {
  const int value = builtin_code(code);
  if (value == kTfliteCustomCode) return code.custom_code() ? code.custom_code()->str() : "";
  const char* builtin = tflite_builtin_name(value);
  return builtin ? builtin : "";
}

// Index of the binding that names the operator, -1 for none.
int binding_of(const tflite::OperatorCode& code, const CustomOpBindings& bindings) {
  const std::string name = bindable_name(code);
  for (size_t i = 0; i < bindings.size() && !name.empty(); ++i) {
    if (bindings[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// What the unsupported-operators line adds: the CUSTOM op needs a binding, a builtin may have a rewrite.
std::string unbound_custom_hint(const tflite::OperatorCode& code) {
  return builtin_code(code) == kTfliteCustomCode ? " (custom: needs --custom-op)" : rewrite_hint(bindable_name(code));
}

// A binding no operator uses is a typo or the wrong model: refused, naming the operators there are.
void check_bindings_used(const CustomOpBindings& bindings, const std::vector<bool>& used) {
  for (size_t i = 0; i < bindings.size(); ++i) {
    if (!used[i]) {
      throw CompileError("--custom-op " + bindings[i].name + ": no operator of the model is '" + bindings[i].name +
                         "' (a CUSTOM op's custom_code, or a builtin name such as SOFTMAX; `microaot inspect` "
                         "lists the model's operators)");
    }
  }
}
}  // namespace

std::vector<ResolvedOp> resolve_operators(const tflite::Model& model, const tflite::SubGraph& subgraph,
                                          const CustomOpBindings& bindings) {
  std::vector<ResolvedOp> resolved;
  std::vector<bool> used(bindings.size(), false);
  std::string unsupported;
  std::string example;  // the first unsupported operator's name, for the --custom-op example
  const auto* operators = subgraph.operators();
  const size_t count = operators ? operators->size() : 0;
  for (size_t i = 0; i < count; ++i) {
    const tflite::OperatorCode& code = opcode_of(model, *operators->Get(i), i);
    const int binding = binding_of(code, bindings);
    if (binding < 0 && (is_reader_handled_code(builtin_code(code)) || is_tflm_decode(code))) {
      resolved.push_back({OpKind::Custom, code.version(), -1, true});
      continue;
    }
    const std::optional<OpKind> kind = binding >= 0 ? OpKind::Custom : kind_of(builtin_code(code));
    if (binding >= 0) used[static_cast<size_t>(binding)] = true;
    if (kind) {
      resolved.push_back({*kind, code.version(), binding});
    } else {
      unsupported += "\n  op " + std::to_string(i) + ": " + name_of(code) + ", version " +
                     std::to_string(code.version()) + unbound_custom_hint(code);
      if (example.empty()) example = bindable_name(code);
    }
  }
  if (!unsupported.empty()) throw CompileError("unsupported operators:" + unsupported + unsupported_advice(example));
  check_bindings_used(bindings, used);
  return resolved;
}

}  // namespace tflite_detail
}  // namespace microaot
