/* The integer SVDF template (TFLM's svdf_common.cc, EvalIntegerSvdfReference): the including file defines
 * MICROAOT_FN (declared in microaot/kernels/svdf.h), MICROAOT_SVDF_STATE (int16_t or int8_t: the type of
 * weights_time and of the state) and its range MICROAOT_SVDF_STATE_MIN / _MAX. */
#include <stddef.h>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/svdf.h"

typedef MICROAOT_SVDF_STATE microaot_svdf_state_t;

void MICROAOT_FN(const microaot_svdf_params_q* params, const int8_t* input, const int8_t* weights_feature,
                 const microaot_svdf_state_t* weights_time, const int32_t* bias, microaot_svdf_state_t* state,
                 int8_t* output, void* scratch) {
  const int32_t batches = params->batches, depth = params->input_size, filters = params->filters;
  const int32_t units = params->units, rank = params->rank, memory = params->memory;
  const size_t state_size = (size_t)batches * (size_t)filters * (size_t)memory;
  int32_t* filter_sums = (int32_t*)scratch;
  int32_t* unit_sums = filter_sums + (size_t)batches * (size_t)filters;
  int32_t b, f, u, j;
  size_t k;
  /* Every filter's memory one step older: the whole state one element left (the last slot of each filter
   * then holds its neighbour's oldest value until the feature value overwrites it). */
  for (k = 0; k + 1 < state_size; ++k) state[k] = state[k + 1];
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
      batch_state[(size_t)f * (size_t)memory + (size_t)(memory - 1)] =
          (microaot_svdf_state_t)(params->state_zero_point + acc);
    }
    for (f = 0; f < filters; ++f) {
      const microaot_svdf_state_t* t_row = weights_time + (size_t)f * (size_t)memory;
      const microaot_svdf_state_t* s_row = batch_state + (size_t)f * (size_t)memory;
      int32_t acc = 0;
      for (j = 0; j < memory; ++j) acc += (int32_t)t_row[j] * ((int32_t)s_row[j] - params->state_zero_point);
      filter_sums[(size_t)b * (size_t)filters + (size_t)f] = acc;
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
