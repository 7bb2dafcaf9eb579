/* SVDF, float32 (TFLM's EvalFloatSvdfReference): the same steps and summation order as the reference, then
 * the fused activation as a clamp. microaot_svdf_f32 keeps TFLM's shifted layout, microaot_svdf_ring_f32 a
 * ring per filter (see the integer template, microaot/internal/templates/svdf.h): both sum oldest first. */
#include <stddef.h>

#include "microaot/kernels/svdf.h"

static float svdf_clamp(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* A filter's memory (newest value in slot `newest`, the oldest after it) against its weights_time row. */
static float svdf_time_dot_f32(const float* weights, const float* slots, int32_t memory, int32_t newest) {
  const int32_t older = memory - 1 - newest;
  float acc = 0.0f;
  int32_t j;
  for (j = 0; j < older; ++j) acc += weights[j] * slots[newest + 1 + j];
  for (j = 0; j <= newest; ++j) acc += weights[older + j] * slots[j];
  return acc;
}

static void svdf_step_f32(const microaot_svdf_params_f32* params, const float* input, const float* weights_feature,
                          const float* weights_time, const float* bias, float* state, int32_t newest, float* output,
                          void* scratch) {
  const int32_t batches = params->batches, depth = params->input_size, filters = params->filters;
  const int32_t units = params->units, rank = params->rank, memory = params->memory;
  float* filter_sums = (float*)scratch;
  int32_t b, f, u, j;
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
      batch_state[(size_t)f * (size_t)memory + (size_t)newest] = acc;
    }
    for (f = 0; f < filters; ++f) {
      sums[f] = svdf_time_dot_f32(weights_time + (size_t)f * (size_t)memory, batch_state + (size_t)f * (size_t)memory,
                                  memory, newest);
    }
    for (u = 0; u < units; ++u) {
      float acc = bias != NULL ? bias[u] : 0.0f;
      for (j = 0; j < rank; ++j) acc += sums[u * rank + j];
      out_row[u] = svdf_clamp(acc, params->activation_min, params->activation_max);
    }
  }
}

void microaot_svdf_f32(const microaot_svdf_params_f32* params, const float* input, const float* weights_feature,
                       const float* weights_time, const float* bias, float* state, float* output, void* scratch) {
  const size_t state_size = (size_t)params->batches * (size_t)params->filters * (size_t)params->memory;
  size_t k;
  for (k = 0; k + 1 < state_size; ++k) state[k] = state[k + 1]; /* one step older, as the integer kernels */
  svdf_step_f32(params, input, weights_feature, weights_time, bias, state, params->memory - 1, output, scratch);
}

microaot_status microaot_svdf_ring_f32(const microaot_svdf_params_f32* params, const float* input,
                                       const float* weights_feature, const float* weights_time, const float* bias,
                                       float* state, int32_t* position, float* output, void* scratch) {
  const int32_t oldest = *position; /* the slot the new values replace */
  if (oldest < 0 || oldest >= params->memory) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  svdf_step_f32(params, input, weights_feature, weights_time, bias, state, oldest, output, scratch);
  *position = oldest + 1 == params->memory ? 0 : oldest + 1;
  return MICROAOT_STATUS_OK;
}
