// The arithmetic of post-training quantization, by TFLite's conventions so that the written .tflite runs
// the same under TFLite Micro: asymmetric int8 activations whose range always holds 0, symmetric int8
// weights (zero point 0, one scale per output channel or one per tensor), int32 bias with scale = input
// scale x weight scale. Also the range estimators (--method) and the error measure of the report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace microaot {

struct AffineParams {
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// int8 parameters for real values in [min, max]: the range is first widened to hold 0 (so that 0 is exact,
// as padding and ReLU need), then scale = (max - min) / 255 and the zero point is rounded into [-128, 127].
// An empty range (min = max = 0) gets scale 1/255.
AffineParams int8_activation_params(float min, float max);

// int16 parameters (TFLite's 16x8 convention): symmetric, zero point 0, scale = max(|min|, |max|) / 32767;
// an empty range gets scale 1/32767.
AffineParams int16_activation_params(float min, float max);
// The parameters of an activation of `type` (int8: int8_activation_params; int16: int16_activation_params).
AffineParams activation_params(float min, float max, DType type);
// The integer range of an activation type: int8 [-128, 127], uint8 [0, 255], int16 [-32768, 32767].
struct IntRange {
  int32_t min, max;
};
IntRange int_range(DType type);
// round(v / scale) + zero_point clamped to `type`'s range; and back.
int32_t quantize_value(float value, AffineParams params, DType type);
float dequantize_value(int32_t value, AffineParams params);

// Symmetric int8 weight scales: max |w| / 127 over each slice along `axis` of a tensor of `shape` (one
// scale when per_channel is false). A slice of zeros gets scale 1 (any positive value quantizes it to 0).
std::vector<float> int8_weight_scales(const std::vector<float>& weights, const std::vector<int32_t>& shape,
                                      int axis, bool per_channel);
// round(w / scale of its channel), clamped to [-127, 127] (TFLite's symmetric weights never use -128).
std::vector<int8_t> quantize_int8_weights(const std::vector<float>& weights, const std::vector<int32_t>& shape,
                                          int axis, const std::vector<float>& scales);
// Symmetric weights in int16 holding `bits` bits (TFLite's SVDF weights_time: 10, so that the state products
// summed over the memory keep 6 bits of headroom): scale = max |w| / 2^(bits-1) (1 for all zeros), values
// round(w / scale) in [-2^(bits-1), 2^(bits-1)].
struct Int16Weights {
  float scale = 1.0f;
  std::vector<int16_t> values;
};
Int16Weights quantize_int16_weights(const std::vector<float>& weights, int bits);
// Widens the weight scales where a bias would not fit: a channel whose |bias| / (input_scale x scale)
// exceeds 2^30 (a dead channel: tiny weights, large bias) gets scale |bias| / (input_scale x 2^30), so
// that the bias plus every product still fits the accumulator (TFLite's converter does the same). The
// same limit serves the int64 bias of 16x8: a wider one (2^46) makes the channel's rescale factor
// input x weight / output scale fall below 2^-31, which TFLite's QuantizeMultiplier turns into 0 (the
// channel's output lost: measured on vww_mobilenet's dead channels).
void fit_bias_in_weight_scales(std::vector<float>& weight_scales, const std::vector<float>& bias, float input_scale);
// round(b / (input_scale * weight_scale of its channel)), saturated to int32 (int8 activations) or int64
// (int16 activations: TFLite's 16x8 kernels take an int64 bias).
std::vector<int64_t> quantize_bias(const std::vector<float>& bias, float input_scale,
                                   const std::vector<float>& weight_scales, DType bias_type);
std::vector<int32_t> quantize_int32_bias(const std::vector<float>& bias, float input_scale,
                                         const std::vector<float>& weight_scales);
// Bias correction (Nagel et al. 2019, the weight error's expected shift): per output channel,
// sum of (dequantized weight - float weight) x the mean of the input channel it multiplies, over the
// calibration set. The last weight dimension names the input channel (CONV_2D [O, H, W, I], FULLY_CONNECTED
// [O, I]) or, for DEPTHWISE_CONV_2D [1, H, W, I x multiplier], the output channel whose input is it /
// multiplier. Subtracted from the float bias before it is quantized.
std::vector<float> weight_error_shift(const std::vector<float>& weights, const std::vector<int8_t>& quantized,
                                      const std::vector<int32_t>& shape, int axis, const std::vector<float>& scales,
                                      const std::vector<float>& input_means, int multiplier);
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
// [min, max] scaled by 1, 0.95, ..., 0.5, the one whose quantize-dequantize error (mean square) in `type`
// on the values is smallest. `values` must not be empty.
Range estimate_range(std::vector<float> values, RangeMethod method, DType type = DType::kInt8);

// Signal-to-quantization-noise ratio in dB: 10 log10(sum ref^2 / sum (ref - got)^2); +inf when equal,
// -inf for a zero reference that got noise.
double sqnr_db(const std::vector<float>& ref, const std::vector<float>& got);

}  // namespace microaot
