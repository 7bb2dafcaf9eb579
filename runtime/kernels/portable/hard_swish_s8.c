/* HARD_SWISH int8 with TFLM's reference arithmetic: 16-bit fixed point throughout (gemmlowp's int16
 * primitives), the input 128 times finer, multiplied by the "relu-ish" factor relu6(x + 3) / 6 in Q0.15. */
#include "microaot/fixedpoint_math.h"
#include "microaot/kernels/activations.h"

/* gemmlowp's int16 rounding doubling high multiply: a * b / 2^15 rounded to nearest, -1 * -1 saturated. */
static int32_t rounding_doubling_high_mul_s16(int32_t a, int32_t b) {
  const int32_t product = a * b;
  const int32_t nudge = product >= 0 ? (1 << 14) : 1 - (1 << 14);
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  return (product + nudge) / (1 << 15);
}

/* The same truncated toward zero (TFLM's SaturatingDoublingHighMul, like Arm's SQDMULH). */
static int32_t doubling_high_mul_s16(int32_t a, int32_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  return a * b / (1 << 15);
}

static int32_t saturating_left_shift_s16(int32_t x, int amount) {
  const int64_t shifted = (int64_t)x * ((int64_t)1 << amount);
  return (int32_t)(shifted > INT16_MAX ? INT16_MAX : (shifted < INT16_MIN ? INT16_MIN : shifted));
}

/* gemmlowp's RoundingDivideByPOT on an int16: its mask is 2^exponent - 1 cut to 16 bits (all ones from 16). */
static int32_t rounding_divide_by_pot_s16(int32_t x, int exponent) {
  const int32_t mask = exponent >= 16 ? -1 : (1 << exponent) - 1;
  const int32_t threshold = (mask < 0 ? -1 : mask >> 1) + (x < 0 ? 1 : 0);
  return (int32_t)microaot_shift_right_floor(x, exponent) + ((x & mask) > threshold ? 1 : 0);
}

/* The input rescaled onto [-3, 3] -> [-1, 1] (saturating) and mapped to [0, 1] in Q0.15. */
static int32_t reluish_factor(const microaot_hard_swish_params_s8* p, int32_t hires_input) {
  int32_t value = hires_input;
  if (p->reluish_shift > 0) value = saturating_left_shift_s16(value, (int)p->reluish_shift - 1);
  value = rounding_doubling_high_mul_s16(value, p->reluish_multiplier);
  /* The last bit of a left shift comes after the multiply, so that only it can saturate. */
  if (p->reluish_shift > 0) value = saturating_left_shift_s16(value, 1);
  if (p->reluish_shift < 0) value = rounding_divide_by_pot_s16(value, (int)-p->reluish_shift);
  return (value + (1 << 15)) >> 1;
}

static int32_t hard_swish_element(const microaot_hard_swish_params_s8* p, int32_t x) {
  const int32_t hires_input = (x - p->input_zero_point) * 128;
  const int32_t preshift_output = rounding_doubling_high_mul_s16(hires_input, p->output_multiplier);
  const int32_t product = doubling_high_mul_s16(reluish_factor(p, hires_input), preshift_output);
  const int32_t output = rounding_divide_by_pot_s16(product, (int)-p->output_shift);
  /* TFLM adds the zero point in int16, wrapping. */
  return microaot_clamp_s32(microaot_wrap_s16(output + p->output_zero_point), INT8_MIN, INT8_MAX);
}

#define MICROAOT_HARD_SWISH_S8(p, x) hard_swish_element(p, x)
MICROAOT_DEFINE_UNARY_KERNEL(hard_swish_s8, microaot_hard_swish_params_s8, int8_t, int8_t, MICROAOT_HARD_SWISH_S8)
