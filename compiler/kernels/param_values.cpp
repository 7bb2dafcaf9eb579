#include "kernels/param_values.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

namespace microaot {

namespace {
struct IntegerRange {
  int64_t min, max;
};

IntegerRange range_of(ParamKind kind) {
  switch (kind) {
    case ParamKind::kI8Array: return {INT8_MIN, INT8_MAX};
    case ParamKind::kI16Array: return {INT16_MIN, INT16_MAX};
    default: return {INT32_MIN, INT32_MAX};
  }
}

// The form a field of `kind` must be given in.
ParamValue::Form form_of(ParamKind kind) {
  switch (kind) {
    case ParamKind::kI32: return ParamValue::Form::kInteger;
    case ParamKind::kF32: return ParamValue::Form::kReal;
    case ParamKind::kF32Array: return ParamValue::Form::kReals;
    default: return ParamValue::Form::kIntegers;
  }
}

ParamValue named(const std::string& field, ParamValue::Form form) {
  ParamValue value;
  value.field = field;
  value.form = form;
  return value;
}

void check_range(const ParamField& field, const ParamValue& value) {
  const IntegerRange range = range_of(field.kind);
  std::vector<int64_t> all = value.integers;
  if (value.form == ParamValue::Form::kInteger) all.push_back(value.integer);
  for (int64_t v : all) {
    if (v < range.min || v > range.max) {
      throw ParamBindError("field '" + field.name + "': " + std::to_string(v) + " does not fit " +
                           param_c_type(field.kind));
    }
  }
}
}  // namespace

bool ParamValue::operator==(const ParamValue& o) const {
  const auto same_reals = [](const std::vector<float>& a, const std::vector<float>& b) {
    // Bitwise, so that NaN and -0.0 round-trip too.
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](float x, float y) {
             return std::memcmp(&x, &y, sizeof x) == 0;
           });
  };
  return field == o.field && form == o.form && integer == o.integer && same_reals({real}, {o.real}) &&
         integers == o.integers && same_reals(reals, o.reals);
}

void ParamValues::add(ParamValue value) {
  if (find(value.field) != nullptr) throw ParamBindError("field '" + value.field + "' is set twice");
  values_.push_back(std::move(value));
}

void ParamValues::set_int(const std::string& field, int64_t value) {
  ParamValue v = named(field, ParamValue::Form::kInteger);
  v.integer = value;
  add(std::move(v));
}

void ParamValues::replace_int(const std::string& field, int64_t value) {
  for (ParamValue& v : values_) {
    if (v.field != field) continue;
    if (v.form != ParamValue::Form::kInteger) throw ParamBindError("field '" + field + "' is not an integer");
    v.integer = value;
    return;
  }
  throw ParamBindError("field '" + field + "' is not set");
}

void ParamValues::replace_ints(const std::string& field, std::vector<int64_t> values) {
  for (ParamValue& v : values_) {
    if (v.field != field) continue;
    if (v.form != ParamValue::Form::kIntegers) throw ParamBindError("field '" + field + "' is not an integer array");
    v.integers = std::move(values);
    return;
  }
  throw ParamBindError("field '" + field + "' is not set");
}

void ParamValues::set_float(const std::string& field, float value) {
  ParamValue v = named(field, ParamValue::Form::kReal);
  v.real = value;
  add(std::move(v));
}

void ParamValues::set_ints(const std::string& field, std::vector<int64_t> values) {
  ParamValue v = named(field, ParamValue::Form::kIntegers);
  v.integers = std::move(values);
  add(std::move(v));
}

void ParamValues::set_floats(const std::string& field, std::vector<float> values) {
  ParamValue v = named(field, ParamValue::Form::kReals);
  v.reals = std::move(values);
  add(std::move(v));
}

const ParamValue* ParamValues::find(const std::string& field) const {
  for (const ParamValue& v : values_) {
    if (v.field == field) return &v;
  }
  return nullptr;
}

void ParamValues::bind(const ParamStruct& params) {
  std::vector<ParamValue> ordered;
  for (const ParamField& field : params.fields) {
    const ParamValue* value = find(field.name);
    if (value == nullptr) throw ParamBindError("field '" + field.name + "' of " + params.c_type() + " is not set");
    if (value->form != form_of(field.kind)) {
      throw ParamBindError("field '" + field.name + "' is given in the wrong form for a " +
                           (is_array(field.kind) ? std::string("const ") + param_c_type(field.kind) + "*"
                                                 : std::string(param_c_type(field.kind))));
    }
    check_range(field, *value);
    ordered.push_back(*value);
  }
  for (const ParamValue& value : values_) {
    if (params.find(value.field) < 0) {
      throw ParamBindError("field '" + value.field + "' is not a field of " + params.c_type());
    }
  }
  values_ = std::move(ordered);
}

int64_t ParamValues::array_bytes(const ParamStruct& params) const {
  int64_t total = 0;
  for (const ParamField& field : params.fields) {
    const ParamValue* value = find(field.name);
    if (value == nullptr || !is_array(field.kind)) continue;
    const size_t count = field.kind == ParamKind::kF32Array ? value->reals.size() : value->integers.size();
    total += static_cast<int64_t>(count * element_bytes(field.kind));
  }
  return total;
}

}  // namespace microaot
