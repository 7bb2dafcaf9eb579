/* The integer SVDF template (TFLM's svdf_common.cc, EvalIntegerSvdfReference): the including file defines
 * MICROAOT_FN and MICROAOT_RING_FN (declared in microaot/kernels/svdf.h), MICROAOT_SVDF_STATE (int16_t or
 * int8_t: the type of weights_time and of the state) and its range MICROAOT_SVDF_STATE_MIN / _MAX.
 * MICROAOT_FN keeps TFLM's layout (each filter's memory oldest first, shifted every run); MICROAOT_RING_FN
 * keeps each filter's memory as an SVDF state ring whose newest slot is *position, and moves no state. */
#include <stddef.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/svdf.h"

typedef MICROAOT_SVDF_STATE microaot_svdf_state_t;

/* Each filter's memory (slot `newest` holds the newest value, the slot after it the oldest) against its
 * weights_time row, oldest first as TFLM sums: the slots after `newest`, then those up to it. */
static int32_t svdf_time_dot(const microaot_svdf_state_t* weights, const microaot_svdf_state_t* slots,
                             int32_t memory, int32_t newest, int32_t zero_point) {
  const int32_t older = memory - 1 - newest;
  int32_t acc = 0;
  int32_t j;
  for (j = 0; j < older; ++j) acc += (int32_t)weights[j] * ((int32_t)slots[newest + 1 + j] - zero_point);
  for (j = 0; j <= newest; ++j) acc += (int32_t)weights[older + j] * ((int32_t)slots[j] - zero_point);
  return acc;
}

/* One run with the new feature values written to slot `newest` of every filter's memory. */
static void svdf_step(const microaot_svdf_params_q* params, const int8_t* input, const int8_t* weights_feature,
                      const microaot_svdf_state_t* weights_time, const int32_t* bias, microaot_svdf_state_t* state,
                      int32_t newest, int8_t* output, void* scratch) {
  const int32_t batches = params->batches, depth = params->input_size, filters = params->filters;
  const int32_t units = params->units, rank = params->rank, memory = params->memory;
  int32_t* filter_sums = (int32_t*)scratch;
  int32_t* unit_sums = filter_sums + (size_t)batches * (size_t)filters;
  int32_t b, f, u, j;
  size_t k;
  for (b = 0; b < batches; ++b) {
    const int8_t* in_row = input + (size_t)b * (size_t)depth;
    microaot_svdf_state_t* batch_state = state + (size_t)b * (size_t)filters * (size_t)memory;
    for (f = 0; f < filters; ++f) {
      const int8_t* w_row = weights_feature + (size_t)f * (size_t)depth;
      int32_t acc = 0;
      int32_t d;
      for (d = 0; d < depth; ++d) acc += (int32_t)w_row[d] * ((int32_t)in_row[d] + params->input_offset);
      acc = microaot_multiply_by_quantized_multiplier(acc, params->feature_multiplier, params->feature_shift);
      acc = microaot_clamp_s32(acc, MICROAOT_SVDF_STATE_MIN, MICROAOT_SVDF_STATE_MAX);
      /* TFLM stores zero point + value in the state type as it is (a wrap for an int8 state near its ends). */
      batch_state[(size_t)f * (size_t)memory + (size_t)newest] =
          (microaot_svdf_state_t)(params->state_zero_point + acc);
    }
    for (f = 0; f < filters; ++f) {
      filter_sums[(size_t)b * (size_t)filters + (size_t)f] =
          svdf_time_dot(weights_time + (size_t)f * (size_t)memory, batch_state + (size_t)f * (size_t)memory, memory,
                        newest, params->state_zero_point);
    }
    for (u = 0; u < units; ++u) {
      int32_t acc = bias != NULL ? bias[u] : 0;
      for (j = 0; j < rank; ++j) acc += filter_sums[(size_t)b * (size_t)filters + (size_t)(u * rank + j)];
      unit_sums[(size_t)b * (size_t)units + (size_t)u] = acc;
    }
  }
  for (k = 0; k < (size_t)batches * (size_t)units; ++k) {
    const int32_t scaled =
        microaot_multiply_by_quantized_multiplier(unit_sums[k], params->output_multiplier, params->output_shift);
    output[k] = (int8_t)microaot_clamp_s32(scaled + params->output_offset, -128, 127);
  }
}

void MICROAOT_FN(const microaot_svdf_params_q* params, const int8_t* input, const int8_t* weights_feature,
                 const microaot_svdf_state_t* weights_time, const int32_t* bias, microaot_svdf_state_t* state,
                 int8_t* output, void* scratch) {
  const size_t state_size = (size_t)params->batches * (size_t)params->filters * (size_t)params->memory;
  size_t k;
  /* Every filter's memory one step older: the whole state one element left (the last slot of each filter
   * then holds its neighbour's oldest value until the feature value overwrites it). */
  for (k = 0; k + 1 < state_size; ++k) state[k] = state[k + 1];
  svdf_step(params, input, weights_feature, weights_time, bias, state, params->memory - 1, output, scratch);
}

microaot_status MICROAOT_RING_FN(const microaot_svdf_params_q* params, const int8_t* input,
                                 const int8_t* weights_feature, const microaot_svdf_state_t* weights_time,
                                 const int32_t* bias, microaot_svdf_state_t* state, int32_t* position, int8_t* output,
                                 void* scratch) {
  const int32_t oldest = *position; /* the slot the new values replace */
  if (oldest < 0 || oldest >= params->memory) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  svdf_step(params, input, weights_feature, weights_time, bias, state, oldest, output, scratch);
  *position = oldest + 1 == params->memory ? 0 : oldest + 1;
  return MICROAOT_STATUS_OK;
}
