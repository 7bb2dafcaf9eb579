/* SOFTMAX int16 -> int16 with TFLM's reference arithmetic (SoftmaxInt16): per row, the exps of the
 * rescaled differences to the maximum come from a table (kept in the output row), their sum is normalized
 * to [1, 2) and inverted through the 1/(1 + x) table, and each exp is multiplied by that, rounded. */
#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_exp.h"
#include "microaot/kernels/softmax.h"

/* floor(n / 128) without relying on the sign behaviour of >> */
static int32_t floor_div_128(int32_t n) { return n >= 0 ? n / 128 : -((-n + 127) / 128); }

/* TFLM's LUTLookup: 512 segments over the int16 range, linear interpolation on the low 7 bits. */
static int32_t lut_lookup(int32_t value, const int16_t* lut) {
  const int32_t biased = value + 32768; /* [0, 65535] */
  const int32_t index = biased / 128;
  const int32_t offset = biased % 128;
  const int32_t base = lut[index];
  const int32_t slope = lut[index + 1] - base;
  return base + floor_div_128(slope * offset + 64);
}

static void softmax_row_s16(const microaot_softmax_params_s16* params, const int16_t* in, int16_t* out) {
  const int32_t depth = params->depth;
  int32_t max = -32768;
  int32_t sum = 0; /* Q16.15 */
  int headroom_plus_one;
  int32_t shifted_sum;
  int32_t reciprocal;
  int right_shift;
  int32_t c;
  for (c = 0; c < depth; ++c) max = in[c] > max ? in[c] : max;
  for (c = 0; c < depth; ++c) {
    const int32_t scaled = microaot_multiply_by_quantized_multiplier((int32_t)in[c] - max, params->input_multiplier,
                                                                     (int)params->input_shift);
    out[c] = (int16_t)lut_lookup(microaot_clamp_s32(scaled + 32767, -32768, 32767), params->exp_lut);
    sum += out[c];
  }
  headroom_plus_one = microaot_count_leading_zeros_u32((uint32_t)sum);
  /* The sum as Q1.14 in [1, 2) (rounded), then x = sum - 1 recentred onto the table's [-32768, 32767]. */
  shifted_sum = (int32_t)((((int64_t)sum << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
  reciprocal = lut_lookup(microaot_clamp_s32(shifted_sum - ((1 << 15) + (1 << 16)), -32768, 32767),
                          params->one_over_one_plus_x_lut);
  right_shift = 31 - headroom_plus_one;
  for (c = 0; c < depth; ++c) {
    const int64_t product = (int64_t)out[c] * reciprocal + ((int64_t)1 << (right_shift - 1));
    out[c] = (int16_t)microaot_clamp_s32((int32_t)(product >> right_shift), 0, 32767);
  }
}

void microaot_softmax_s16(const microaot_softmax_params_s16* params, const int16_t* input, int16_t* output) {
  int32_t row;
  for (row = 0; row < params->outer_size; ++row) {
    const int64_t start = (int64_t)row * params->depth;
    softmax_row_s16(params, input + start, output + start);
  }
}
