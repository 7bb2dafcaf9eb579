/* The 16x8 FULLY_CONNECTED (int16 activations, int8 symmetric weights, int64 bias) over packed weights
 * (microaot/kernels/packed.h): rows (batches) of at most MICROAOT_PACKED_S16_MAX_WINDOW elements put in SMLAD's
 * lane order once (no widening: the activations are int16 already), then two rows against each unit pair
 * (microaot_packed_dot_2x2) or one row against four units at a time (microaot_packed_dot_1x4, a last one to
 * three in C), int32 sums (they cannot overflow), then the bias and TFLite's 16x8 requantization per output as
 * the unpacked DSP kernel's (microaot/internal/dsp_dot_s16.h). The including file defines
 * MICROAOT_PACKED_WIDE_WEIGHTS (0: int8 weight words, 1: int16) and the function name MICROAOT_FN. */
#include <stddef.h>
#include <string.h>

#include "microaot/internal/dsp_dot_s16.h"
#include "microaot/internal/packed_dot.h"
#include "microaot/kernels/packed.h"

typedef microaot_fully_connected_params_q fc_params;

/* Unit u's output from its sum. */
static int16_t unit_output(const fc_params* p, const int64_t* bias, int32_t u, int32_t sum) {
  const microaot_dsp_s16_channel step = microaot_dsp_s16_channel_of(
      bias, p->output_multiplier[u], p->output_shift[u], p->output_offset, p->activation_min, p->activation_max, u);
  return microaot_dsp_s16_output(&step, sum);
}

/* One row (its lane words two a group) against every unit into out. */
static void one_row(const fc_params* p, const uint32_t* row, int32_t groups, const int32_t* weights,
                    const int64_t* bias, int16_t* out) {
  const size_t pair_words = (size_t)MICROAOT_PACKED_PAIR_WORDS * (size_t)groups;
  int32_t u, first, g, j;
  for (u = 0; u + 4 <= p->output_depth; u += 4) {
    int32_t acc[4] = {0, 0, 0, 0};
    weights = microaot_packed_dot_1x4(weights, row, groups, acc);
    for (j = 0; j < 4; ++j) out[u + j] = unit_output(p, bias, u + j, acc[j]);
  }
  for (first = u; u < p->output_depth; ++u) { /* the last one to three units, from the pairs after the quads */
    const int32_t* const pair = weights + (size_t)((u - first) / 2) * pair_words;
    int32_t sum = 0;
    for (g = 0; g < groups; ++g) {
      sum = microaot_packed_mac(sum, row + 2 * g, pair + MICROAOT_PACKED_PAIR_WORDS * g, (u - first) % 2);
    }
    out[u] = unit_output(p, bias, u, sum);
  }
}

/* Two rows (interleaved: per group row 0's two words, row 1's) against each unit pair into out0 and out1. */
static void two_rows(const fc_params* p, const uint32_t* rows, int32_t groups, const int32_t* weights,
                     const int64_t* bias, int16_t* out0, int16_t* out1) {
  int32_t u;
  for (u = 0; u < p->output_depth; u += 2) {
    int32_t acc[4] = {0, 0, 0, 0};
    weights = microaot_packed_dot_2x2(weights, rows, groups, acc);
    out0[u] = unit_output(p, bias, u, acc[0]);
    out1[u] = unit_output(p, bias, u, acc[2]);
    if (u + 1 < p->output_depth) { /* an odd last pair's second unit is zeros */
      out0[u + 1] = unit_output(p, bias, u + 1, acc[1]);
      out1[u + 1] = unit_output(p, bias, u + 1, acc[3]);
    }
  }
}

microaot_status MICROAOT_FN(const microaot_fully_connected_params_q* params, const int16_t* input,
                            const int32_t* weights, const int64_t* bias, int16_t* output, void* scratch) {
  const int32_t n = params->input_depth, groups = microaot_packed_groups(params->input_depth);
  const size_t units = (size_t)params->output_depth;
  uint32_t* const rows = (uint32_t*)scratch;
  int32_t b;
  if (weights == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (n > MICROAOT_PACKED_S16_MAX_WINDOW) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (b = 0; b < params->batches; b += 2) {
    const int16_t* const in = input + (size_t)b * (size_t)n;
    int16_t* const out = output + (size_t)b * units;
    if (b + 1 < params->batches) {
      microaot_dsp_lanes_s16_strided(in, n, rows, 4);
      microaot_dsp_lanes_s16_strided(in + n, n, rows + 2, 4);
      two_rows(params, rows, groups, weights, bias, out, out + units);
    } else {
      microaot_dsp_lanes_s16_strided(in, n, rows, 2);
      one_row(params, rows, groups, weights, bias, out);
    }
  }
  return MICROAOT_STATUS_OK;
}
