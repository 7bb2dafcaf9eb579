#include "ops/weighted_accumulator.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "ops/op_checks.h"

namespace microaot {

namespace {
constexpr int64_t kWideLimit = (int64_t{1} << 47) - 1;  // TFLite's 16x8 requantization takes |x| < 2^47
constexpr int kWideMaxShift = 7;
constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

// The bounds below take constants from the file as they are (an int64 bias may be anything), so they
// saturate instead of overflowing: a saturated bound is over every limit.
int64_t saturating_abs_diff(int64_t a, int64_t b) {
  int64_t diff = 0;
  if (__builtin_sub_overflow(a, b, &diff) || diff == std::numeric_limits<int64_t>::min()) return kSaturated;
  return std::llabs(diff);
}

int64_t saturating_mul_add(int64_t a, int64_t b, int64_t c) {
  int64_t product = 0;
  int64_t sum = 0;
  if (__builtin_mul_overflow(a, b, &product) || __builtin_add_overflow(product, c, &sum)) return kSaturated;
  return sum;
}

// Sum of |w - zero point| over the elements of each channel along `axis`.
std::vector<int64_t> channel_abs_sums(const Tensor& weights, int axis, int channels) {
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < weights.shape.size(); ++d) inner *= weights.shape[d];
  const int64_t zero_point = weights.quant.zero_point.size() == 1 ? weights.quant.zero_point[0] : 0;
  std::vector<int64_t> sums(static_cast<size_t>(channels), 0);
  for (int64_t i = 0; i < weights.num_elements(); ++i) {
    int64_t& sum = sums[static_cast<size_t>((i / inner) % channels)];
    sum = saturating_mul_add(1, sum, saturating_abs_diff(constant_int(weights, i), zero_point));
  }
  return sums;
}
}  // namespace

DType accumulator_type(const Graph& graph, int input, int bias, bool int32_bias_option) {
  switch (graph.tensor(input).dtype) {
    case DType::kInt8: return DType::kInt32;
    case DType::kInt16:
      if (bias != kNoTensor) return graph.tensor(bias).dtype == DType::kInt32 ? DType::kInt32 : DType::kInt64;
      return int32_bias_option ? DType::kInt32 : DType::kInt64;
    default: return DType::kFloat32;
  }
}

std::string accumulator_suffix(const Graph& graph, int input, DType accumulator) {
  return graph.tensor(input).dtype == DType::kInt16 && accumulator == DType::kInt32 ? "_bias32" : "";
}

int64_t accumulator_limit(DType accumulator) {
  return accumulator == DType::kInt64 ? kWideLimit : std::numeric_limits<int32_t>::max();
}

int64_t max_abs_input(const Tensor& input) {
  const int64_t zp = input.quant.zero_point[0];
  const int64_t lo = input.dtype == DType::kInt16 ? std::numeric_limits<int16_t>::min() : -128;
  const int64_t hi = input.dtype == DType::kInt16 ? std::numeric_limits<int16_t>::max() : 127;
  return std::max(std::llabs(lo - zp), std::llabs(hi - zp));
}

int64_t constant_int(const Tensor& t, int64_t i) {
  const size_t size = dtype_size(t.dtype);
  uint64_t bits = 0;
  for (size_t b = 0; b < size; ++b) bits |= uint64_t{t.data[static_cast<size_t>(i) * size + b]} << (8 * b);
  if (size < 8 && (bits >> (8 * size - 1)) != 0) bits |= ~uint64_t{0} << (8 * size);  // sign-extend
  return static_cast<int64_t>(bits);
}

void expect_accumulator_fits(const Graph& graph, const Op& op, int input, int weights, int bias, int axis,
                             DType accumulator) {
  const Tensor& w = graph.tensor(weights);
  const int channels = w.shape[static_cast<size_t>(axis)];
  const std::vector<int64_t> sums = channel_abs_sums(w, axis, channels);
  const int64_t max_input = max_abs_input(graph.tensor(input));
  const int64_t limit = accumulator_limit(accumulator);
  for (int c = 0; c < channels; ++c) {
    const int64_t bias_abs = bias == kNoTensor ? 0 : saturating_abs_diff(constant_int(graph.tensor(bias), c), 0);
    const int64_t bound = saturating_mul_add(sums[static_cast<size_t>(c)], max_input, bias_abs);
    expect_tensor(bound <= limit, graph, op, weights, input_role(op, weights),
                  "output channel " + std::to_string(c) + " could overflow the " +
                      (accumulator == DType::kInt64 ? std::string("48-bit range of the int64") : "int32") +
                      " accumulator (worst case " + std::to_string(bound) + ")");
  }
}

void expect_wide_requantizable(const Graph& graph, const Op& op, const std::vector<QuantizedMultiplier>& multipliers,
                               DType accumulator) {
  if (accumulator != DType::kInt64) return;
  for (size_t c = 0; c < multipliers.size(); ++c) {
    expect_op(multipliers[c].shift <= kWideMaxShift, graph, op,
              "output channel " + std::to_string(c) + " needs a rescale factor of 2^" +
                  std::to_string(multipliers[c].shift) +
                  " or more, beyond TFLite's 16x8 requantization (at most 2^7: an output scale far too small?)");
  }
}

}  // namespace microaot
