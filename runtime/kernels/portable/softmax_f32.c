/* SOFTMAX float, in the order of TFLM's reference: row maximum, exp((x - max) * beta) summed left to
 * right while stored, then each stored exp divided by the sum. */
#include <float.h>
#include <math.h>

#include "microaot/kernels/softmax.h"

static void softmax_row_f32(int32_t depth, float beta, const float* in, float* out) {
  float max = -FLT_MAX; /* the reference's start value; NaN elements never become the maximum */
  float sum = 0.0f;
  int32_t c;
  for (c = 0; c < depth; ++c) max = max < in[c] ? in[c] : max;
  for (c = 0; c < depth; ++c) {
    const float e = expf((in[c] - max) * beta);
    out[c] = e;
    sum += e;
  }
  for (c = 0; c < depth; ++c) out[c] = out[c] / sum;
}

void microaot_softmax_f32(const microaot_softmax_params_f32* params, const float* input, float* output) {
  int32_t row;
  for (row = 0; row < params->outer_size; ++row) {
    const int64_t start = (int64_t)row * params->depth;
    softmax_row_f32(params->depth, params->beta, input + start, output + start);
  }
}
