/* SVDF, float32 (TFLM's EvalFloatSvdfReference): the same steps and summation order as the reference, then
 * the fused activation as a clamp. */
#include <stddef.h>

#include "microaot/kernels/svdf.h"

static float svdf_clamp(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

void microaot_svdf_f32(const microaot_svdf_params_f32* params, const float* input, const float* weights_feature,
                       const float* weights_time, const float* bias, float* state, float* output, void* scratch) {
  const int32_t batches = params->batches, depth = params->input_size, filters = params->filters;
  const int32_t units = params->units, rank = params->rank, memory = params->memory;
  const size_t state_size = (size_t)batches * (size_t)filters * (size_t)memory;
  float* filter_sums = (float*)scratch;
  int32_t b, f, u, j;
  size_t k;
  for (k = 0; k + 1 < state_size; ++k) state[k] = state[k + 1]; /* one step older, as the integer kernels */
  for (b = 0; b < batches; ++b) {
    const float* in_row = input + (size_t)b * (size_t)depth;
    float* batch_state = state + (size_t)b * (size_t)filters * (size_t)memory;
    float* sums = filter_sums + (size_t)b * (size_t)filters;
    float* out_row = output + (size_t)b * (size_t)units;
    for (f = 0; f < filters; ++f) {
      const float* w_row = weights_feature + (size_t)f * (size_t)depth;
      float acc = 0.0f;
      int32_t d;
      for (d = 0; d < depth; ++d) acc += w_row[d] * in_row[d];
      batch_state[(size_t)f * (size_t)memory + (size_t)(memory - 1)] = acc;
    }
    for (f = 0; f < filters; ++f) {
      const float* t_row = weights_time + (size_t)f * (size_t)memory;
      const float* s_row = batch_state + (size_t)f * (size_t)memory;
      float acc = 0.0f;
      for (j = 0; j < memory; ++j) acc += t_row[j] * s_row[j];
      sums[f] = acc;
    }
    for (u = 0; u < units; ++u) {
      float acc = bias != NULL ? bias[u] : 0.0f;
      for (j = 0; j < rank; ++j) acc += sums[u * rank + j];
      out_row[u] = svdf_clamp(acc, params->activation_min, params->activation_max);
    }
  }
}
