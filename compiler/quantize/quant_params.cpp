#include "quantize/quant_params.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "support/diagnostics.h"

namespace microaot {

namespace {
constexpr int kQMin = -128;
constexpr int kQMax = 127;
constexpr int kWeightMax = 127;

// Elements of `shape` before `axis`, along it, and after it: element (o, c, i) is at (o * n + c) * inner + i.
struct Slices {
  int64_t outer = 1, channels = 1, inner = 1;
};
Slices slices(const std::vector<int32_t>& shape, int axis) {
  Slices s;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t n = shape[d];
    if (static_cast<int>(d) < axis) s.outer *= n;
    if (static_cast<int>(d) == axis) s.channels = n;
    if (static_cast<int>(d) > axis) s.inner *= n;
  }
  return s;
}
template <typename Fn>
void for_each_element(const std::vector<int32_t>& shape, int axis, Fn fn) {
  const Slices s = slices(shape, axis);
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t c = 0; c < s.channels; ++c) {
      for (int64_t i = 0; i < s.inner; ++i) fn(static_cast<size_t>((o * s.channels + c) * s.inner + i), c);
    }
  }
}

double quantize_error(const std::vector<float>& values, Range range, DType type) {
  const AffineParams p = activation_params(range.min, range.max, type);
  double sum = 0.0;
  for (float v : values) {
    const double e = static_cast<double>(dequantize_value(quantize_value(v, p, type), p)) - v;
    sum += e * e;
  }
  return sum;
}

// At most 65536 values evenly spaced through `values`: the mse search tries 11 ranges on them.
std::vector<float> subsample(const std::vector<float>& values) {
  constexpr size_t kMax = 65536;
  if (values.size() <= kMax) return values;
  std::vector<float> out;
  out.reserve(kMax);
  for (size_t i = 0; i < kMax; ++i) out.push_back(values[i * values.size() / kMax]);
  return out;
}

float quantile(std::vector<float>& values, double q) {
  const size_t k = static_cast<size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}
}  // namespace

Int16Weights quantize_int16_weights(const std::vector<float>& weights, int bits) {
  const double limit = std::ldexp(1.0, bits - 1);
  float largest = 0.0f;
  for (float w : weights) largest = std::max(largest, std::fabs(w));
  Int16Weights out;
  out.scale = largest > 0.0f ? static_cast<float>(largest / limit) : 1.0f;
  for (float w : weights) {
    out.values.push_back(static_cast<int16_t>(std::clamp(std::round(static_cast<double>(w) / out.scale), -limit, limit)));
  }
  return out;
}

AffineParams int8_activation_params(float min, float max) {
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  AffineParams p;
  if (!(max > min)) {
    p.scale = 1.0f / 255.0f;
    p.zero_point = 0;
    return p;
  }
  p.scale = static_cast<float>((static_cast<double>(max) - min) / (kQMax - kQMin));
  const double zero_from_min = kQMin - static_cast<double>(min) / p.scale;
  p.zero_point = static_cast<int32_t>(std::clamp(std::round(zero_from_min), double{kQMin}, double{kQMax}));
  return p;
}

AffineParams int16_activation_params(float min, float max) {
  constexpr double kInt16Max = 32767.0;
  const double peak = std::max(std::fabs(static_cast<double>(min)), std::fabs(static_cast<double>(max)));
  return {static_cast<float>((peak > 0.0 ? peak : 1.0) / kInt16Max), 0};
}

AffineParams activation_params(float min, float max, DType type) {
  if (type == DType::kInt16) return int16_activation_params(min, max);
  MICROAOT_CHECK(type == DType::kInt8, "activation parameters for int8 or int16 only");
  return int8_activation_params(min, max);
}

IntRange int_range(DType type) {
  switch (type) {
    case DType::kUInt8: return {0, 255};
    case DType::kInt16: return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
    default: MICROAOT_CHECK(type == DType::kInt8, "an integer range for int8, uint8 or int16 only");
  }
  return {kQMin, kQMax};
}

int32_t quantize_value(float value, AffineParams params, DType type) {
  const IntRange r = int_range(type);
  const double q = std::round(static_cast<double>(value / params.scale)) + params.zero_point;
  return static_cast<int32_t>(std::clamp(q, static_cast<double>(r.min), static_cast<double>(r.max)));
}

float dequantize_value(int32_t value, AffineParams params) {
  return params.scale * static_cast<float>(value - params.zero_point);
}

std::vector<float> int8_weight_scales(const std::vector<float>& weights, const std::vector<int32_t>& shape,
                                      int axis, bool per_channel) {
  const int64_t channels = per_channel ? slices(shape, axis).channels : 1;
  std::vector<float> peak(static_cast<size_t>(channels), 0.0f);
  for_each_element(shape, axis, [&](size_t at, int64_t c) {
    float& m = peak[per_channel ? static_cast<size_t>(c) : 0];
    m = std::max(m, std::fabs(weights[at]));
  });
  for (float& s : peak) s = s > 0.0f ? s / kWeightMax : 1.0f;
  return peak;
}

std::vector<int8_t> quantize_int8_weights(const std::vector<float>& weights, const std::vector<int32_t>& shape,
                                          int axis, const std::vector<float>& scales) {
  std::vector<int8_t> out(weights.size());
  for_each_element(shape, axis, [&](size_t at, int64_t c) {
    const float scale = scales.size() == 1 ? scales[0] : scales[static_cast<size_t>(c)];
    const float q = std::round(weights[at] / scale);
    out[at] = static_cast<int8_t>(std::clamp(q, float{-kWeightMax}, float{kWeightMax}));
  });
  return out;
}

void fit_bias_in_weight_scales(std::vector<float>& weight_scales, const std::vector<float>& bias, float input_scale) {
  constexpr double kBiasLimit = 0x1p30;
  for (size_t c = 0; c < bias.size(); ++c) {
    float& scale = weight_scales[weight_scales.size() == 1 ? 0 : c];
    const double needed = std::fabs(static_cast<double>(bias[c])) / (static_cast<double>(input_scale) * kBiasLimit);
    if (scale < needed) scale = static_cast<float>(needed * (1.0 + 1e-6));
  }
}

std::vector<int64_t> quantize_bias(const std::vector<float>& bias, float input_scale,
                                   const std::vector<float>& weight_scales, DType bias_type) {
  MICROAOT_CHECK(bias_type == DType::kInt32 || bias_type == DType::kInt64, "an int32 or int64 bias only");
  // int64's extremes are not doubles; 2^62 is far beyond any real bias at any scale.
  const double hi = bias_type == DType::kInt32 ? std::numeric_limits<int32_t>::max() : 0x1p62;
  const double lo = bias_type == DType::kInt32 ? std::numeric_limits<int32_t>::min() : -0x1p62;
  std::vector<int64_t> out(bias.size());
  for (size_t c = 0; c < bias.size(); ++c) {
    const double scale = static_cast<double>(input_scale) * weight_scales[weight_scales.size() == 1 ? 0 : c];
    out[c] = static_cast<int64_t>(std::clamp(std::round(bias[c] / scale), lo, hi));
  }
  return out;
}

std::vector<int32_t> quantize_int32_bias(const std::vector<float>& bias, float input_scale,
                                         const std::vector<float>& weight_scales) {
  const std::vector<int64_t> wide = quantize_bias(bias, input_scale, weight_scales, DType::kInt32);
  return std::vector<int32_t>(wide.begin(), wide.end());
}

std::vector<float> weight_error_shift(const std::vector<float>& weights, const std::vector<int8_t>& quantized,
                                      const std::vector<int32_t>& shape, int axis, const std::vector<float>& scales,
                                      const std::vector<float>& input_means, int multiplier) {
  const int64_t last = shape.empty() ? 1 : shape.back();
  std::vector<double> shift(static_cast<size_t>(slices(shape, axis).channels), 0.0);
  for_each_element(shape, axis, [&](size_t at, int64_t c) {
    const size_t in = static_cast<size_t>((static_cast<int64_t>(at) % last) / multiplier);
    const double scale = scales.size() == 1 ? scales[0] : scales[static_cast<size_t>(c)];
    const double error = scale * quantized[at] - weights[at];
    shift[static_cast<size_t>(c)] += error * (in < input_means.size() ? input_means[in] : 0.0f);
  });
  return std::vector<float>(shift.begin(), shift.end());
}

int8_t quantize_int8(float value, AffineParams params) {
  return static_cast<int8_t>(quantize_value(value, params, DType::kInt8));
}

float dequantize_int8(int8_t value, AffineParams params) { return dequantize_value(value, params); }

RangeMethod parse_range_method(const std::string& name) {
  for (RangeMethod m : {RangeMethod::kMinMax, RangeMethod::kPercentile, RangeMethod::kMse}) {
    if (name == range_method_name(m)) return m;
  }
  throw UsageError("--method '" + name + "' is not one of minmax, percentile, mse");
}

const char* range_method_name(RangeMethod method) {
  switch (method) {
    case RangeMethod::kMinMax: return "minmax";
    case RangeMethod::kPercentile: return "percentile";
    case RangeMethod::kMse: return "mse";
  }
  return "?";
}

Range estimate_range(std::vector<float> values, RangeMethod method, DType type) {
  MICROAOT_CHECK(!values.empty(), "no calibration values for a range");
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const Range full{*lo, *hi};
  if (method == RangeMethod::kMinMax) return full;
  if (method == RangeMethod::kPercentile) {
    const float low = quantile(values, 0.0001);
    return {low, quantile(values, 0.9999)};
  }
  const std::vector<float> sample = subsample(values);
  Range best = full;
  double best_error = quantize_error(sample, full, type);
  for (int step = 1; step <= 10; ++step) {
    const float f = 1.0f - 0.05f * static_cast<float>(step);
    const Range r{full.min * f, full.max * f};
    const double e = quantize_error(sample, r, type);
    if (e < best_error) {
      best_error = e;
      best = r;
    }
  }
  return best;
}

double sqnr_db(const std::vector<float>& ref, const std::vector<float>& got) {
  double signal = 0.0, noise = 0.0;
  for (size_t i = 0; i < ref.size() && i < got.size(); ++i) {
    signal += static_cast<double>(ref[i]) * ref[i];
    const double d = static_cast<double>(ref[i]) - got[i];
    noise += d * d;
  }
  if (noise == 0.0) return std::numeric_limits<double>::infinity();
  if (signal == 0.0) return -std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(signal / noise);
}

}  // namespace microaot
