/* int16 FULLY_CONNECTED (16x8) with the DSP extension, bit-exact with the portable kernel: input rows (batches)
 * two at a time where both fit the stack buffer, each put in SMLAD's lane order there, against weight rows (units)
 * two at a time widened word by word (microaot/internal/dsp_dot_s16.h: int32 chunk sums into int64, then the bias
 * and TFLite's 16x8 requantization as the reference). Longer rows and layers with zero-point offsets run in
 * pieces (rows_in_pieces): every layer takes the DSP loops. */
#include <stddef.h>

#include "microaot/internal/dsp_dot_s16.h"
#include "microaot/kernels/fully_connected.h"

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

/* The zero points' terms of a product of rows: sum over k of (w[k] + filter_offset) * (x[k] + input_offset) is
 * sum of w[k] * x[k], plus filter_offset * (sum of x[k] + n * input_offset) per input row, plus input_offset *
 * sum of w[k] per unit (all exact in int64). The first: */
static int64_t row_term(const fc_params* p, const int16_t* x) {
  int64_t sum = (int64_t)p->input_depth * p->input_offset;
  int32_t k;
  if (p->filter_offset == 0) return 0;
  for (k = 0; k < p->input_depth; ++k) sum += x[k];
  return sum * p->filter_offset;
}

/* The second: input_offset times the sum of a unit's n weights (int32: n * 128 is far inside it). */
static int64_t unit_term(const fc_params* p, const int8_t* w) {
  const uint32_t ones = 0x00010001u;
  int32_t sum = 0, k;
  if (p->input_offset == 0) return 0;
  for (k = 0; k + 4 <= p->input_depth; k += 4) {
    const uint32_t word = microaot_dsp_load4(w + k);
    sum = microaot_dsp_smlad(microaot_dsp_sxtb16(word), ones, sum);
    sum = microaot_dsp_smlad(microaot_dsp_sxtb16_ror8(word), ones, sum);
  }
  for (; k < p->input_depth; ++k) sum += w[k];
  return (int64_t)sum * p->input_offset;
}

/* The pieces of `length` elements in s (two_rows: first and second, else first) times the same elements of units
 * [block, end) (`weights`: from the piece's first element of unit 0), added to their sums. Apart, so that its
 * loops have the registers to themselves. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void piece_times_units(const fc_params* p, microaot_dsp_s16_pieces* s, int two_rows, const int8_t* weights,
                              int32_t length, int32_t block, int32_t end) {
  const size_t n = (size_t)p->input_depth;
  int32_t u;
  for (u = block; u < end; u += 2) {
    const int8_t* w0 = weights + (size_t)u * n;
    const int8_t* w1 = u + 1 < p->output_depth ? w0 + n : w0; /* an odd last unit pairs with itself */
    if (two_rows) {
      microaot_dsp_dot_2x2_s16_long(s->first, s->second, w0, w1, length, s->sums[(u - block) / 2]);
    } else {
      microaot_dsp_dot_1x2_s16_long(s->first, w0, w1, length, s->sums[(u - block) / 2]);
    }
  }
}

/* Rows longer than the buffer, or with zero-point offsets: one or two rows (in1 NULL: one) in pieces of
 * MICROAOT_DSP_S16_PIECE elements (an int32 sum each) put in lane order in `s` (microaot/internal/dsp_dot_s16.h),
 * against MICROAOT_DSP_S16_BLOCK units at a time whose int64 sums lie there too (the pieces put in lane order again
 * for each block: about two instructions per element against 32 MACs). */
static void rows_in_pieces(const fc_params* p, const int16_t* in0, const int16_t* in1, const int8_t* weights,
                           const int64_t* bias, microaot_dsp_s16_pieces* s, int16_t* out0, int16_t* out1) {
  const int32_t n = p->input_depth, units = p->output_depth;
  const int64_t term0 = row_term(p, in0), term1 = in1 != NULL ? row_term(p, in1) : 0;
  int32_t block, begin, u;
  for (block = 0; block < units; block += MICROAOT_DSP_S16_BLOCK) {
    const int32_t end = units - block < MICROAOT_DSP_S16_BLOCK ? units : block + MICROAOT_DSP_S16_BLOCK;
    for (u = block; u < end; u += 2) {
      int64_t* const acc = s->sums[(u - block) / 2];
      acc[0] = acc[1] = term0, acc[2] = acc[3] = term1;
    }
    for (begin = 0; begin < n; begin += MICROAOT_DSP_S16_PIECE) {
      const int32_t length = n - begin < MICROAOT_DSP_S16_PIECE ? n - begin : MICROAOT_DSP_S16_PIECE;
      microaot_dsp_lanes_s16(in0 + begin, length, s->first);
      if (in1 != NULL) microaot_dsp_lanes_s16(in1 + begin, length, s->second);
      piece_times_units(p, s, in1 != NULL, weights + begin, length, block, end);
    }
    for (u = block; u < end; u += 2) {
      const int32_t second = u + 1 < units ? u + 1 : u;
      const int64_t* const acc = s->sums[(u - block) / 2];
      microaot_dsp_s16_channel first_step = unit_of(p, bias, u), second_step = unit_of(p, bias, second);
      first_step.bias += unit_term(p, weights + (size_t)u * (size_t)n);
      second_step.bias += unit_term(p, weights + (size_t)second * (size_t)n);
      out0[u] = microaot_dsp_s16_output(&first_step, acc[0]);
      out0[second] = microaot_dsp_s16_output(&second_step, acc[1]);
      if (out1 != NULL) {
        out1[u] = microaot_dsp_s16_output(&first_step, acc[2]);
        out1[second] = microaot_dsp_s16_output(&second_step, acc[3]);
      }
    }
  }
}

/* Every row in pieces, two at a time. Apart, so that the short rows' loops keep their registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void batches_in_pieces(const fc_params* p, const int16_t* input, const int8_t* weights, const int64_t* bias,
                              microaot_dsp_s16_pieces* s, int16_t* output) {
  const size_t depth = (size_t)p->input_depth, units = (size_t)p->output_depth;
  int32_t b;
  for (b = 0; b < p->batches; b += 2) {
    const int pair = b + 1 < p->batches;
    const int16_t* in0 = input + (size_t)b * depth;
    int16_t* out0 = output + (size_t)b * units;
    rows_in_pieces(p, in0, pair ? in0 + depth : NULL, weights, bias, s, out0, pair ? out0 + units : NULL);
  }
}

void microaot_fully_connected_s16(const microaot_fully_connected_params_q* params, const int16_t* input,
                                  const int8_t* weights, const int64_t* bias, int16_t* output) {
  const size_t depth = (size_t)params->input_depth, units = (size_t)params->output_depth;
  /* Two rows side by side where they fit, else one at a time. */
  const int32_t step = 2 * depth <= MICROAOT_DSP_S16_ROWS ? 2 : 1;
  const size_t second = (depth + 1) / 2; /* the second row's first word */
  union {
    uint32_t rows[MICROAOT_DSP_S16_ROWS / 2]; /* words: the dot's LDRDs */
    microaot_dsp_s16_pieces pieces;          /* long rows' */
  } buffer;
  int32_t b;
  if (depth > MICROAOT_DSP_S16_ROWS || params->input_offset != 0 || params->filter_offset != 0) {
    batches_in_pieces(params, input, weights, bias, &buffer.pieces, output);
    return;
  }
  for (b = 0; b < params->batches; b += step) {
    const int pair = step == 2 && b + 1 < params->batches;
    const int16_t* in0 = input + (size_t)b * depth;
    microaot_dsp_lanes_s16(in0, params->input_depth, buffer.rows);
    if (pair) microaot_dsp_lanes_s16(in0 + depth, params->input_depth, buffer.rows + second);
    rows_times_weights(params, buffer.rows, pair ? buffer.rows + second : NULL, weights, bias,
                       output + (size_t)b * units, pair ? output + (size_t)(b + 1) * units : NULL);
  }
}
