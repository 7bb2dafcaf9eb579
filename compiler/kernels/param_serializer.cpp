#include "kernels/param_serializer.h"

#include <cstring>

#include "support/diagnostics.h"

namespace microaot {

namespace {
void put(std::vector<uint8_t>& out, uint32_t bits, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
}

uint32_t float_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

void put_array(std::vector<uint8_t>& out, const ParamField& field, const ParamValue& value) {
  const bool reals = field.kind == ParamKind::kF32Array;
  const size_t count = reals ? value.reals.size() : value.integers.size();
  put(out, static_cast<uint32_t>(count), 4);
  for (size_t i = 0; i < count; ++i) {
    put(out, reals ? float_bits(value.reals[i]) : static_cast<uint32_t>(value.integers[i]), element_bytes(field.kind));
  }
  while (out.size() % 4 != 0) out.push_back(0);
}

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& bytes) : bytes_(bytes) {}
  uint32_t take(size_t n) {
    if (bytes_.size() - at_ < n) throw std::invalid_argument("params bytes end early");
    uint32_t bits = 0;
    for (size_t i = 0; i < n; ++i) bits |= static_cast<uint32_t>(bytes_[at_ + i]) << (8 * i);
    at_ += n;
    return bits;
  }
  void align4() { take((4 - at_ % 4) % 4); }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::vector<uint8_t>& bytes_;
  size_t at_ = 0;
};

// Sign-extends the low `bytes` bytes of `bits`.
int64_t signed_value(uint32_t bits, size_t bytes) {
  const int shift = static_cast<int>(32 - 8 * bytes);
  return static_cast<int32_t>(bits << shift) >> shift;
}

float real_value(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

void read_field(Reader& in, const ParamField& field, ParamValues& out) {
  const size_t width = element_bytes(field.kind);
  if (field.kind == ParamKind::kI32) return out.set_int(field.name, signed_value(in.take(4), 4));
  if (field.kind == ParamKind::kF32) return out.set_float(field.name, real_value(in.take(4)));
  const uint32_t count = in.take(4);
  std::vector<int64_t> integers;
  std::vector<float> reals;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t bits = in.take(width);
    if (field.kind == ParamKind::kF32Array) {
      reals.push_back(real_value(bits));
    } else {
      integers.push_back(signed_value(bits, width));
    }
  }
  in.align4();
  if (field.kind == ParamKind::kF32Array) return out.set_floats(field.name, std::move(reals));
  out.set_ints(field.name, std::move(integers));
}
}  // namespace

std::vector<uint8_t> serialize_params(const ParamStruct& params, const ParamValues& values) {
  std::vector<uint8_t> out;
  for (const ParamField& field : params.fields) {
    const ParamValue* value = values.find(field.name);
    MICROAOT_CHECK(value != nullptr, "serializing unbound params of " + params.c_type());
    if (is_array(field.kind)) {
      put_array(out, field, *value);
    } else {
      put(out, field.kind == ParamKind::kF32 ? float_bits(value->real) : static_cast<uint32_t>(value->integer), 4);
    }
  }
  return out;
}

ParamValues deserialize_params(const ParamStruct& params, const std::vector<uint8_t>& bytes) {
  Reader in(bytes);
  ParamValues values;
  for (const ParamField& field : params.fields) read_field(in, field, values);
  if (!in.done()) throw std::invalid_argument("params bytes longer than " + params.c_type());
  values.bind(params);
  return values;
}

}  // namespace microaot
