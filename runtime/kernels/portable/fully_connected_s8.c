/* FULLY_CONNECTED, int8 activations and weights, int32 bias: TFLite Micro's reference arithmetic. */
#include "microaot/fixedpoint.h"
#include "microaot/kernels/fully_connected.h"

/* One unit of one batch: the int32 accumulator of (input + input_offset) * (weight + filter_offset). */
static int32_t dot_s8(const int8_t* input, const int8_t* weights, int32_t depth, int32_t input_offset,
                      int32_t filter_offset) {
  int32_t acc = 0;
  int32_t d;
  for (d = 0; d < depth; ++d) {
    acc += ((int32_t)weights[d] + filter_offset) * ((int32_t)input[d] + input_offset);
  }
  return acc;
}

void microaot_fully_connected_s8(const microaot_fully_connected_params_s8* params, const int8_t* input,
                                 const int8_t* weights, const int32_t* bias, int8_t* output) {
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  int32_t b;
  int32_t u;
  for (b = 0; b < params->batches; ++b) {
    const int8_t* in_row = input + (size_t)b * (size_t)depth;
    int8_t* out_row = output + (size_t)b * (size_t)units;
    for (u = 0; u < units; ++u) {
      int32_t acc = dot_s8(in_row, weights + (size_t)u * (size_t)depth, depth, params->input_offset,
                           params->filter_offset);
      if (bias != NULL) acc += bias[u];
      acc = microaot_multiply_by_quantized_multiplier(acc, params->output_multiplier[u], params->output_shift[u]);
      acc += params->output_offset;
      out_row[u] = (int8_t)microaot_clamp_s32(acc, params->activation_min, params->activation_max);
    }
  }
}
