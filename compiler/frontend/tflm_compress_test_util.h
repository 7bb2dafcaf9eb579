// Test helper: compresses a constant of a tflite_test::ModelSpec as TensorFlow Lite Micro's tooling does (the
// look-up-table kind with DECODE operators), written from TFLM's documented format (frontend/tflite_decode.cpp
// restates it): the constant's buffer becomes UINT8 indices (most significant bit first, in element order), a
// UINT8 ancillary tensor holds the 16-byte header and the value tables (one per channel along the quantization
// axis, padded to the longest, or one for a tensor quantized per tensor), and a custom TFLM_DECODE operator
// before each consumer writes a copy of the original tensor that the consumer reads instead.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/tflite_test_builder.h"

namespace microaot {
namespace tflite_test {

struct LutEncoding {
  std::vector<uint8_t> encoded;    // the packed indices
  std::vector<uint8_t> ancillary;  // header + value tables
};

inline size_t element_bytes(tflite::TensorType type) {
  switch (type) {
    case tflite::TensorType::INT16: return 2;
    case tflite::TensorType::INT32:
    case tflite::TensorType::FLOAT32: return 4;
    case tflite::TensorType::INT64: return 8;
    default: return 1;
  }
}

// The look-up-table encoding of constant `t` at `bits` per index (throws when a channel has more than 2^bits
// values).
inline LutEncoding encode_lut(const TensorSpec& t, int bits) {
  const size_t size = element_bytes(t.type), count = t.data.size() / size;
  const bool per_channel = t.scale.size() > 1;
  const size_t channels = per_channel ? t.scale.size() : 1;
  const bool last_axis = per_channel && t.axis != 0;
  using Value = std::vector<uint8_t>;
  auto value = [&](size_t e) { return Value(t.data.begin() + e * size, t.data.begin() + (e + 1) * size); };
  auto channel = [&](size_t e) { return last_axis ? e % channels : e / (count / channels); };
  std::vector<std::vector<Value>> tables(channels);
  for (size_t e = 0; e < count; ++e) {
    std::vector<Value>& table = tables[channel(e)];
    if (std::find(table.begin(), table.end(), value(e)) == table.end()) table.push_back(value(e));
  }
  size_t stride = 0;
  for (const auto& table : tables) stride = std::max(stride, table.size());
  if (stride > (size_t{1} << bits)) throw std::runtime_error("encode_lut: more values than " + std::to_string(bits) + " bits index");
  LutEncoding out;
  out.ancillary.assign(16, 0);
  out.ancillary[1] = 1;  // header version
  out.ancillary[4] = 1;  // table version
  out.ancillary[5] = static_cast<uint8_t>(bits);
  out.ancillary[6] = static_cast<uint8_t>(stride);
  for (const auto& table : tables) {
    for (size_t i = 0; i < stride; ++i) {
      const Value v = i < table.size() ? table[i] : Value(size, 0);
      out.ancillary.insert(out.ancillary.end(), v.begin(), v.end());
    }
  }
  out.encoded.assign((count * static_cast<size_t>(bits) + 7) / 8, 0);
  for (size_t e = 0; e < count; ++e) {
    const std::vector<Value>& table = tables[channel(e)];
    const auto index = static_cast<uint32_t>(std::find(table.begin(), table.end(), value(e)) - table.begin());
    for (int b = 0; b < bits; ++b) {  // bit b of the index, most significant first
      const size_t at = e * static_cast<size_t>(bits) + static_cast<size_t>(b);
      if ((index >> (bits - 1 - b)) & 1u) out.encoded[at / 8] = static_cast<uint8_t>(out.encoded[at / 8] | (0x80u >> (at % 8)));
    }
  }
  return out;
}

// Compresses constant `tensor` of m at `bits`: a TFLM_DECODE before each op that reads it, as TFLM's
// decode_insert does (one DECODE per consumer, one ancillary tensor shared by them). Returns the ancillary's id.
inline int32_t tflm_compress(ModelSpec& m, int32_t tensor, int bits) {
  const LutEncoding lut = encode_lut(m.tensors[static_cast<size_t>(tensor)], bits);
  TensorSpec ancillary;
  ancillary.name = m.tensors[static_cast<size_t>(tensor)].name + "_ancillary";
  ancillary.type = tflite::TensorType::UINT8;
  ancillary.shape = {static_cast<int32_t>(lut.ancillary.size())};
  ancillary.data = lut.ancillary;
  m.tensors.push_back(ancillary);
  const auto ancillary_id = static_cast<int32_t>(m.tensors.size() - 1);
  for (size_t i = m.ops.size(); i-- > 0;) {
    OpSpec& consumer = m.ops[i];
    if (consumer.custom == "TFLM_DECODE" || std::find(consumer.inputs.begin(), consumer.inputs.end(), tensor) == consumer.inputs.end()) continue;
    TensorSpec decoded = m.tensors[static_cast<size_t>(tensor)];
    decoded.name += "_decoded" + std::to_string(i);
    decoded.data.clear();
    m.tensors.push_back(decoded);
    const auto decoded_id = static_cast<int32_t>(m.tensors.size() - 1);
    std::replace(consumer.inputs.begin(), consumer.inputs.end(), tensor, decoded_id);
    m.ops.insert(m.ops.begin() + static_cast<std::ptrdiff_t>(i), op(32, 1, {tensor, ancillary_id}, {decoded_id}, "TFLM_DECODE"));
  }
  TensorSpec& encoded = m.tensors[static_cast<size_t>(tensor)];
  encoded.type = tflite::TensorType::UINT8;
  encoded.shape = {static_cast<int32_t>(lut.encoded.size())};
  encoded.scale.clear();
  encoded.zero_point.clear();
  encoded.axis = 0;
  encoded.data = lut.encoded;
  return ancillary_id;
}

}  // namespace tflite_test
}  // namespace microaot
