/* LOG_SOFTMAX int8 with TFLM's reference arithmetic (LogSoftmaxQuantized): per row, the exps of the Q5.26
 * differences to the maximum summed in Q12.19, their log in Q5.26 subtracted from each difference, rescaled to
 * the output's 16/256 units from the top of the range (127). Differences too small to matter give -128. */
#include "microaot/fixedpoint.h"
#include "microaot/fixedpoint_exp.h"
#include "microaot/fixedpoint_math.h"
#include "microaot/kernels/log_softmax.h"

static int32_t scaled_difference(const microaot_log_softmax_params_s8* p, int32_t difference) {
  return microaot_multiply_by_quantized_multiplier(difference, p->input_multiplier, (int)p->input_shift);
}

/* log(sum of exp(scaled difference)) over the row, in Q5.26. */
static int32_t log_sum_of_exps(const microaot_log_softmax_params_s8* p, const int8_t* in, int32_t max) {
  int32_t sum = 0; /* Q12.19: room for the sum of 2^12 ones */
  int32_t c;
  for (c = 0; c < p->depth; ++c) {
    const int32_t difference = (int32_t)in[c] - max;
    if (difference >= p->diff_min) {
      /* exp(0) (the maximum's) directly: the general path is about 150 instructions on a Cortex-M4. */
      const int32_t exp_q0 =
          difference == 0 ? INT32_MAX : microaot_exp_on_negative_values(scaled_difference(p, difference), 5);
      sum += microaot_rounding_divide_by_pot(exp_q0, 12);
    }
  }
  return microaot_log_x_for_x_ge_1(sum, 12, 5);
}

static void log_softmax_row_s8(const microaot_log_softmax_params_s8* p, const int8_t* in, int8_t* out) {
  int32_t max = INT8_MIN;
  int32_t log_sum, lowest_scaled, adjusted_diff_min, c;
  for (c = 0; c < p->depth; ++c) max = in[c] > max ? in[c] : max;
  log_sum = log_sum_of_exps(p, in, max);
  /* The smallest Q5.26 value plus the log sum, back in input units: differences at or below it (or below
   * diff_min) would underflow the output. */
  lowest_scaled = log_sum + INT32_MIN; /* log_sum >= 0 */
  adjusted_diff_min = microaot_multiply_by_quantized_multiplier(lowest_scaled, p->reverse_multiplier,
                                                                (int)p->reverse_shift);
  if (p->diff_min - 1 > adjusted_diff_min) adjusted_diff_min = p->diff_min - 1;
  for (c = 0; c < p->depth; ++c) {
    const int32_t difference = (int32_t)in[c] - max;
    if (difference > adjusted_diff_min) {
      /* Q5.26 -> units of 16/256 (Q4.4 from 31 - 5 - 4 = 22 fraction bits), shifted to end at 127. */
      const int32_t value = microaot_rounding_divide_by_pot(scaled_difference(p, difference) - log_sum, 22) + INT8_MAX;
      out[c] = (int8_t)microaot_clamp_s32(value, INT8_MIN, INT8_MAX);
    } else {
      out[c] = INT8_MIN;
    }
  }
}

void microaot_log_softmax_s8(const microaot_log_softmax_params_s8* params, const int8_t* input, int8_t* output) {
  int32_t row;
  for (row = 0; row < params->outer_size; ++row) {
    const int64_t start = (int64_t)row * params->depth;
    log_softmax_row_s8(params, input + start, output + start);
  }
}
