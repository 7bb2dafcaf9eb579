// The arithmetic of post-training quantization, by TFLite's conventions so that the written .tflite runs
// the same under TFLite Micro: asymmetric int8 activations whose range always holds 0, symmetric int8
// weights (zero point 0, one scale per output channel or one per tensor), int32 bias with scale = input
// scale x weight scale. Also the range estimators (--method) and the error measure of the report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace microaot {

struct AffineParams {
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// int8 parameters for real values in [min, max]: the range is first widened to hold 0 (so that 0 is exact,
// as padding and ReLU need), then scale = (max - min) / 255 and the zero point is rounded into [-128, 127].
// An empty range (min = max = 0) gets scale 1/255.
AffineParams int8_activation_params(float min, float max);

// Symmetric int8 weight scales: max |w| / 127 over each slice along `axis` of a tensor of `shape` (one
// scale when per_channel is false). A slice of zeros gets scale 1 (any positive value quantizes it to 0).
std::vector<float> int8_weight_scales(const std::vector<float>& weights, const std::vector<int32_t>& shape,
                                      int axis, bool per_channel);
// round(w / scale of its channel), clamped to [-127, 127] (TFLite's symmetric weights never use -128).
std::vector<int8_t> quantize_int8_weights(const std::vector<float>& weights, const std::vector<int32_t>& shape,
                                          int axis, const std::vector<float>& scales);
// Widens the weight scales where a bias would not fit: a channel whose |bias| / (input_scale x scale)
// exceeds 2^30 (a dead channel: tiny weights, large bias) gets scale |bias| / (input_scale x 2^30), so that
// the bias plus every product still fits the int32 accumulator (TFLite's converter does the same).
void fit_bias_in_weight_scales(std::vector<float>& weight_scales, const std::vector<float>& bias, float input_scale);
// round(b / (input_scale * weight_scale of its channel)), saturated to int32.
std::vector<int32_t> quantize_int32_bias(const std::vector<float>& bias, float input_scale,
                                         const std::vector<float>& weight_scales);
// round(v / scale) + zero_point clamped to int8.
int8_t quantize_int8(float value, AffineParams params);
float dequantize_int8(int8_t value, AffineParams params);

// How an activation's range is chosen from its calibration values (--method).
enum class RangeMethod { kMinMax, kPercentile, kMse };
RangeMethod parse_range_method(const std::string& name);  // throws UsageError for an unknown name
const char* range_method_name(RangeMethod method);

struct Range {
  float min = 0.0f;
  float max = 0.0f;
};
// minmax: the extremes. percentile: the 0.01% and 99.99% quantiles (outliers clipped). mse: of the ranges
// [min, max] scaled by 1, 0.95, ..., 0.5, the one whose int8 quantize-dequantize error (mean square) on the
// values is smallest. `values` must not be empty.
Range estimate_range(std::vector<float> values, RangeMethod method);

// Signal-to-quantization-noise ratio in dB: 10 log10(sum ref^2 / sum (ref - got)^2); +inf when equal,
// -inf for a zero reference that got noise.
double sqnr_db(const std::vector<float>& ref, const std::vector<float>& got);

}  // namespace microaot
