#include "codegen/c_text.h"

#include <cctype>
#include <cstring>

#include "ops/quant_math.h"
#include "support/diagnostics.h"

namespace microaot {

std::string c_identifier(const std::string& text) {
  std::string id;
  for (char c : text) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  return id;
}

std::string c_macro_name(const std::string& text) {
  std::string name = c_identifier(text);
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string c_comment_text(const std::string& text) {
  std::string clean;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') {
      clean += '?';
    } else if (c == '/' && !clean.empty() && clean.back() == '*') {
      clean += ' ';
      clean += c;
    } else {
      clean += c;
    }
  }
  return clean;
}

namespace {
template <typename T>
T load(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

std::string element_text(const Tensor& t, int64_t i) {
  const uint8_t* p = t.data.data() + i * static_cast<int64_t>(dtype_size(t.dtype));
  switch (t.dtype) {
    case DType::kFloat32: return c_float_literal(load<float>(p));
    case DType::kInt8: return std::to_string(load<int8_t>(p));
    case DType::kUInt8:
    case DType::kBool: return std::to_string(load<uint8_t>(p));
    case DType::kInt16: return std::to_string(load<int16_t>(p));
    case DType::kInt32: return c_int_literal(load<int32_t>(p));
    case DType::kInt64: {
      const int64_t v = load<int64_t>(p);
      return v == INT64_MIN ? "(-9223372036854775807LL - 1)" : std::to_string(v) + "LL";
    }
    case DType::kUnsupported: break;
  }
  MICROAOT_CHECK(false, "constant of unsupported type reached codegen");
}

template <typename ElementText>
std::string join_rows(int64_t count, ElementText text) {
  std::string out;
  for (int64_t i = 0; i < count; ++i) {
    out += (i % 16 == 0) ? (i ? ",\n  " : "  ") : ", ";
    out += text(i);
  }
  return out;
}
}  // namespace

std::string c_initializer(const Tensor& tensor) {
  MICROAOT_CHECK(static_cast<int64_t>(tensor.data.size()) == tensor.byte_size(), "constant size mismatch");
  return join_rows(tensor.num_elements(), [&](int64_t i) { return element_text(tensor, i); });
}

std::string c_initializer(const std::vector<int64_t>& values) {
  return join_rows(static_cast<int64_t>(values.size()), [&](int64_t i) { return c_int_literal(values[i]); });
}

std::string c_initializer(const std::vector<float>& values) {
  return join_rows(static_cast<int64_t>(values.size()), [&](int64_t i) { return c_float_literal(values[i]); });
}

std::string c_int_literal(int64_t value) {
  if (value == INT32_MIN) return "(-2147483647 - 1)";
  if (value == INT64_MIN) return "(-9223372036854775807LL - 1)";
  const bool wide = value < INT32_MIN || value > INT32_MAX;
  return std::to_string(value) + (wide ? "LL" : "");
}

namespace {
std::string array_symbol(const std::string& symbol, const ParamField& field) { return symbol + "_" + field.name; }

bool array_is_empty(const ParamValue& value) { return value.integers.empty() && value.reals.empty(); }

std::string scalar_text(const ParamField& field, const ParamValue& value) {
  return field.kind == ParamKind::kF32 ? c_float_literal(value.real) : c_int_literal(value.integer);
}
}  // namespace

namespace {
// The C declarator `T <symbol>_<field>[N]` of a non-empty array field, and its initializer.
std::string array_declarator(const std::string& symbol, const ParamField& field, const ParamValue& value) {
  const size_t count = field.kind == ParamKind::kF32Array ? value.reals.size() : value.integers.size();
  return std::string(param_c_type(field.kind)) + " " + array_symbol(symbol, field) + "[" + std::to_string(count) + "]";
}

std::string array_initializer(const ParamField& field, const ParamValue& value) {
  return field.kind == ParamKind::kF32Array ? c_initializer(value.reals) : c_initializer(value.integers);
}

const ParamValue& bound_value(const std::string& symbol, const ParamField& field, const ParamValues& values) {
  const ParamValue* value = values.find(field.name);
  MICROAOT_CHECK(value != nullptr, "params of " + symbol + " are not bound");
  return *value;
}
}  // namespace

std::string c_params_definition(const std::string& symbol, const ParamStruct& params, const ParamValues& values,
                                const std::string& arrays_of) {
  std::string arrays;
  std::string fields;
  for (const ParamField& field : params.fields) {
    const ParamValue& value = bound_value(symbol, field, values);
    std::string text;
    if (!is_array(field.kind)) {
      text = scalar_text(field, value);
    } else if (array_is_empty(value)) {
      text = "NULL";
    } else if (!arrays_of.empty()) {
      text = array_symbol(arrays_of, field);
    } else {
      arrays += "extern const " + array_declarator(symbol, field, value) + ";\n";
      text = array_symbol(symbol, field);
    }
    fields += "  ." + field.name + " = " + text + ",\n";
  }
  return arrays + "static const " + params.c_type() + " " + symbol + "_params = {\n" + fields + "};\n";
}

std::string c_params_array_declarations(const std::string& symbol, const ParamStruct& params,
                                        const ParamValues& values) {
  std::string arrays;
  for (const ParamField& field : params.fields) {
    const ParamValue& value = bound_value(symbol, field, values);
    if (is_array(field.kind) && !array_is_empty(value)) {
      arrays += "extern const " + array_declarator(symbol, field, value) + ";\n";
    }
  }
  return arrays;
}

std::string c_params_arrays(const std::string& symbol, const ParamStruct& params, const ParamValues& values) {
  std::string arrays;
  for (const ParamField& field : params.fields) {
    const ParamValue& value = bound_value(symbol, field, values);
    if (!is_array(field.kind) || array_is_empty(value)) continue;
    const std::string declarator = array_declarator(symbol, field, value);
    arrays += "extern const " + declarator + ";\nconst " + declarator + " = {\n" + array_initializer(field, value) + "};\n";
  }
  return arrays;
}

}  // namespace microaot
