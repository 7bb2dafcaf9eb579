/* LOG_SOFTMAX float, in the order of TFLM's reference: row maximum, the exps of x - max summed left to right,
 * then x - max - log(sum) for each element. */
#include <float.h>
#include <math.h>

#include "microaot/kernels/log_softmax.h"

static void log_softmax_row_f32(int32_t depth, const float* in, float* out) {
  float max = -FLT_MAX; /* the reference's start value */
  float sum = 0.0f;
  float log_sum;
  int32_t c;
  for (c = 0; c < depth; ++c) max = max < in[c] ? in[c] : max;
  for (c = 0; c < depth; ++c) sum += expf(in[c] - max);
  log_sum = logf(sum);
  for (c = 0; c < depth; ++c) out[c] = in[c] - max - log_sum;
}

void microaot_log_softmax_f32(const microaot_log_softmax_params_f32* params, const float* input, float* output) {
  int32_t row;
  for (row = 0; row < params->outer_size; ++row) {
    const int64_t start = (int64_t)row * params->depth;
    log_softmax_row_f32(params->depth, input + start, output + start);
  }
}
