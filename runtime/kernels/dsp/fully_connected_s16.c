/* int16 FULLY_CONNECTED (16x8) with the DSP extension, bit-exact with the portable kernel: input rows (batches)
 * two at a time where both fit the stack buffer, each put in SMLAD's lane order there, against weight rows (units) two at a time
 * widened word by word (microaot/internal/dsp_dot_s16.h: int32 chunk sums into int64, then the bias and
 * TFLite's 16x8 requantization as the reference). Rows longer than the buffer and layers with zero-point
 * offsets take the portable code (network_info.txt says so: compiler/kernels/isa_fallbacks.cpp). */
#include <stddef.h>

#include "microaot/fit/dsp_s16.h"
#include "microaot/internal/dsp_dot_s16.h"
#include "microaot/kernels/fully_connected.h"

/* The portable kernel under its own name. */
void microaot_fully_connected_s16_portable(const microaot_fully_connected_params_q* params, const int16_t* input,
                                           const int8_t* weights, const int64_t* bias, int16_t* output);
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_fully_connected_s16_portable
#include "microaot/internal/templates/fully_connected.h"

typedef microaot_fully_connected_params_q fc_params;

/* Unit u's output step (microaot/internal/dsp_dot_s16.h: the template's arithmetic). */
static microaot_dsp_s16_channel unit_of(const fc_params* p, const int64_t* bias, int32_t u) {
  return microaot_dsp_s16_channel_of(bias, p->output_multiplier[u], p->output_shift[u], p->output_offset,
                                     p->activation_min, p->activation_max, u);
}

/* Every unit of one or two lane-ordered rows (a1 NULL: one). */
static void rows_times_weights(const fc_params* p, const uint32_t* a0, const uint32_t* a1, const int8_t* weights,
                               const int64_t* bias, int16_t* out0, int16_t* out1) {
  const int32_t n = p->input_depth, units = p->output_depth;
  int32_t u;
  for (u = 0; u < units; u += 2) {
    const int32_t second = u + 1 < units ? u + 1 : u; /* an odd last unit pairs with itself */
    const int8_t* w0 = weights + (size_t)u * (size_t)n;
    const int8_t* w1 = weights + (size_t)second * (size_t)n;
    const microaot_dsp_s16_channel first_step = unit_of(p, bias, u), second_step = unit_of(p, bias, second);
    int64_t acc[4] = {0, 0, 0, 0};
    if (a1 != NULL) {
      microaot_dsp_dot_2x2_s16_long(a0, a1, w0, w1, n, acc);
      out1[u] = microaot_dsp_s16_output(&first_step, acc[2]);
      out1[second] = microaot_dsp_s16_output(&second_step, acc[3]);
    } else {
      microaot_dsp_dot_1x2_s16_long(a0, w0, w1, n, acc);
    }
    out0[u] = microaot_dsp_s16_output(&first_step, acc[0]);
    out0[second] = microaot_dsp_s16_output(&second_step, acc[1]);
  }
}

void microaot_fully_connected_s16(const microaot_fully_connected_params_q* params, const int16_t* input,
                                  const int8_t* weights, const int64_t* bias, int16_t* output) {
  const size_t depth = (size_t)params->input_depth, units = (size_t)params->output_depth;
  /* Two rows side by side where they fit, else one at a time. */
  const int32_t step = 2 * depth <= MICROAOT_FC_S16_DSP_DEPTH_MAX ? 2 : 1;
  const size_t second = (depth + 1) / 2; /* the second row's first word */
  uint32_t rows[MICROAOT_FC_S16_DSP_DEPTH_MAX / 2]; /* words: the dot's LDRDs */
  int32_t b;
  if (!microaot_fit_fully_connected_s16_dsp(params)) {
    microaot_fully_connected_s16_portable(params, input, weights, bias, output);
    return;
  }
  for (b = 0; b < params->batches; b += step) {
    const int pair = step == 2 && b + 1 < params->batches;
    const int16_t* in0 = input + (size_t)b * depth;
    microaot_dsp_lanes_s16(in0, params->input_depth, rows);
    if (pair) microaot_dsp_lanes_s16(in0 + depth, params->input_depth, rows + second);
    rows_times_weights(params, rows, pair ? rows + second : NULL, weights, bias, output + (size_t)b * units,
                       pair ? output + (size_t)(b + 1) * units : NULL);
  }
}
