#include "float_twin.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "frontend/tflite_reader.h"
#include "quantize/tflite_writer.h"

namespace microaot::e2e {
namespace {

int64_t integer_at(const Tensor& t, size_t i) {
  switch (t.dtype) {
    case DType::kInt8: return static_cast<int8_t>(t.data[i]);
    case DType::kUInt8: return t.data[i];
    case DType::kInt16: { int16_t v; std::memcpy(&v, &t.data[2 * i], 2); return v; }
    case DType::kInt32: { int32_t v; std::memcpy(&v, &t.data[4 * i], 4); return v; }
    default: { int64_t v; std::memcpy(&v, &t.data[8 * i], 8); return v; }
  }
}

// A quantized tensor's bytes as float32 values (its channel's scale and zero point for each element).
std::vector<uint8_t> dequantized_data(const Tensor& t) {
  const size_t count = t.data.size() / dtype_size(t.dtype);
  size_t inner = 1;  // elements per step of the channel axis
  for (size_t d = static_cast<size_t>(t.quant.axis) + 1; d < t.shape.size(); ++d) inner *= static_cast<size_t>(t.shape[d]);
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    const size_t c = t.quant.per_channel() ? (i / inner) % t.quant.scale.size() : 0;
    values[i] = t.quant.scale[c] * static_cast<float>(integer_at(t, i) - t.quant.zero_point[c]);
  }
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

bool is_conversion(const Op& op) { return op.kind == OpKind::Quantize || op.kind == OpKind::Dequantize; }

}  // namespace

Graph float_twin(const Graph& quantized) {
  Graph g = quantized;
  g.description = "float twin of: " + quantized.description;
  std::vector<Op> ops;
  for (const Op& op : g.ops) {
    bool boundary = false;
    for (int& id : g.inputs) {
      if (is_conversion(op) && op.inputs[0] == id) id = op.outputs[0], boundary = true;
    }
    for (int& id : g.outputs) {
      if (is_conversion(op) && op.outputs[0] == id) id = op.inputs[0], boundary = true;
    }
    if (!boundary) ops.push_back(op);
  }
  g.ops = ops;
  for (Tensor& t : g.tensors) {
    const bool narrow = t.dtype == DType::kInt8 || t.dtype == DType::kUInt8 || t.dtype == DType::kInt16;
    if (t.dtype == DType::kFloat32 || (t.quant.empty() && !narrow)) continue;  // int32 shapes stay
    if (!t.data.empty() && !t.quant.empty()) t.data = dequantized_data(t);
    t.dtype = DType::kFloat32;
    t.quant = Quantization{};
  }
  for (Op& op : g.ops) op.version = 1;  // every operator's float form
  return g;
}

std::vector<float> values_of(const Tensor& t, const std::vector<uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / dtype_size(t.dtype));
  if (t.dtype == DType::kFloat32) {
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
    return out;
  }
  Tensor view = t;
  view.data = bytes;
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = t.quant.scale.at(0) * static_cast<float>(integer_at(view, i) - t.quant.zero_point.at(0));
  }
  return out;
}

std::vector<uint8_t> bytes_for(const Tensor& t, const std::vector<float>& values) {
  std::vector<uint8_t> out;
  if (t.dtype == DType::kFloat32) {
    out.resize(values.size() * sizeof(float));
    if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
    return out;
  }
  const bool wide = t.dtype == DType::kInt16;
  const float lo = wide ? -32768.0f : -128.0f, hi = wide ? 32767.0f : 127.0f;
  for (float v : values) {
    const float q = std::round(v / t.quant.scale.at(0)) + static_cast<float>(t.quant.zero_point.at(0));
    const auto x = static_cast<int16_t>(std::clamp(q, lo, hi));
    out.push_back(static_cast<uint8_t>(x & 0xff));
    if (wide) out.push_back(static_cast<uint8_t>((x >> 8) & 0xff));
  }
  return out;
}

void write_float_twin(const std::string& model, const std::string& out) {
  const std::vector<uint8_t> bytes = write_tflite(float_twin(read_tflite_file(model)));
  std::ofstream(out, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
}

}  // namespace microaot::e2e
