/* The int8 UNIDIRECTIONAL_SEQUENCE_LSTM over packed gate weights (microaot/kernels/lstm.h): the including file
 * defines MICROAOT_PACKED_WIDE_WEIGHTS (1: int16 weight words) or MICROAOT_PACKED_RAW_WEIGHTS (1: the raw form of
 * the int8 words), neither for int8 words (microaot/internal/packed_dot.h), and MICROAOT_FN. The arithmetic is the
 * portable kernel's (microaot/internal/templates/lstm_q.h), step by step: each side's sums requantized to Q3.12 and
 * clamped, their saturating sum, sigmoid and tanh through the int16 table, the cell and hidden products
 * requantized as TFLM's MulElementwise; only the order of the work differs (each side's four gates in one product,
 * the input side three steps at a time, the element-wise work of a row in three passes). */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/lstm.h"
#include "microaot/internal/dsp_requant.h"
#include "microaot/internal/packed_dot.h"
#include "microaot/internal/packed_widen3.h"
#include "microaot/internal/templates/packed_pairs3.h"
#include "microaot/kernels/lstm.h"
#include "microaot/kernels/sigmoid.h"

/* A gate's sum to Q3.12, clamped to int16 (a right shift of at most 15, microaot/fit/lstm.h). */
static inline int32_t lstm_gate_requantize(const microaot_dsp_requant* q, int32_t acc) {
  return microaot_dsp_ssat16(microaot_dsp_requant_clamped(q, acc));
}

/* An element-wise product of two int16 values, one of them an activation (|a * b| < 2^30: the activations lie in
 * [-32767, 32767]), no left shift: the high part as SMMLAR of the doubled product, floor((2ab m + 2^31) / 2^32) =
 * floor((ab m + 2^30) / 2^31), exactly. */
static inline int32_t lstm_product_requantize(const microaot_dsp_requant* q, int32_t a, int32_t b) {
  return microaot_dsp_requant_round(q, microaot_dsp_smmlar(2 * (a * b), q->multiplier, 0));
}

/* One side (input or recurrent) of the gates: its packed weights over `depth`, its [4][state] biases, its four
 * gates' requantization. */
typedef struct {
  const int32_t* weights;
  const int32_t* bias;
  microaot_dsp_requant gate[MICROAOT_LSTM_GATES];
  int32_t depth, state;
} lstm_side;

/* Units per chunk of a product: their sums wait on the stack, then one tight loop per gate (its requantization in
 * registers) stores them. A multiple of four: the loops below take whole pairs and quads (4 * state units). 32
 * rather than 16: half the calls for 128 bytes more stack (micro_speech_lstm 1.3% fewer instructions). */
#define LSTM_PACKED_CHUNK 32

/* A unit's sum as the portable kernel's: the raw form's are 256 times it, exactly (|sum| < 2^23, which the compiler
 * proves: compiler/ops/packed_weights.h). */
static inline int32_t lstm_sum(int32_t acc) { return MICROAOT_PACKED_RAW_WEIGHTS ? acc >> 8 : acc; }

/* Whether a gate's sums may take the narrow step (microaot_dsp_requant_narrow: SMMLAR of the doubled sum): its value
 * is clamped to int16 right after, within +-2^(29 - right) for right shifts up to 14, and its multiplier is 0 or at
 * least 2^30 (the compiler's; a blob's other multipliers take the general step). The raw form's doubled sum is one
 * shift, acc >> (7 - left), exact for left shifts up to 6 (|sum| < 2^23). */
static inline int lstm_gate_narrow(const microaot_dsp_requant* q) {
  return q->right <= 14 && (q->multiplier == 0 || q->multiplier >= (int32_t)1 << 30) &&
         (!MICROAOT_PACKED_RAW_WEIGHTS || q->left <= 6);
}

/* A gate's value from its sum by the narrow step. */
static inline int32_t lstm_gate_narrow_value(const microaot_dsp_requant* q, int32_t acc) {
#if MICROAOT_PACKED_RAW_WEIGHTS
  const int32_t doubled = acc >> (7 - q->left);
#else
  const int32_t x = (int32_t)((uint32_t)acc << q->left);
  const int32_t doubled = microaot_dsp_qadd(x, x);
#endif
  return microaot_dsp_ssat16(microaot_dsp_requant_round(q, microaot_dsp_smmlar(doubled, q->multiplier, 0)));
}

/* Units [u, u + n) of one row, their sums (bias included) in `sums`, as their gates' Q3.12 values, plus add[]
 * (the input side's) saturated when there is one; a run may cross a gate's end (a state size not a multiple of
 * four). One tight loop per gate and case, the requantization's constants in registers. */
MICROAOT_PACKED_OUT_OF_LINE void lstm_store(const lstm_side* s, const int32_t* sums, int32_t u, int32_t n,
                                            const int16_t* add, int16_t* out) {
  const int32_t stop = u + n;
  while (u < stop) {
    const int32_t g = u / s->state, gate_end = (g + 1) * s->state, end = gate_end < stop ? gate_end : stop;
    const microaot_dsp_requant q = s->gate[g];
    if (lstm_gate_narrow(&q) && add != NULL) {
      for (; u < end; ++u) {
        out[u] = (int16_t)microaot_dsp_ssat16(lstm_gate_narrow_value(&q, *sums++) + add[u]);
      }
    } else if (lstm_gate_narrow(&q)) {
      for (; u < end; ++u) out[u] = (int16_t)lstm_gate_narrow_value(&q, *sums++);
    } else if (add != NULL) {
      for (; u < end; ++u) out[u] = (int16_t)microaot_dsp_ssat16(lstm_gate_requantize(&q, lstm_sum(*sums++)) + add[u]);
    } else {
      for (; u < end; ++u) out[u] = (int16_t)lstm_gate_requantize(&q, lstm_sum(*sums++));
    }
  }
}

/* Two widened rows (interleaved in `rows`) against every unit, a pair at a time: out0, out1 (add0, add1). */
MICROAOT_PACKED_OUT_OF_LINE void lstm_two_rows(const lstm_side* s, const uint32_t* rows, const int16_t* add0,
                                               const int16_t* add1, int16_t* out0, int16_t* out1) {
  const int32_t groups = microaot_packed_groups(s->depth), units = MICROAOT_LSTM_GATES * s->state;
  const int32_t* pair = s->weights;
  int32_t sums0[LSTM_PACKED_CHUNK], sums1[LSTM_PACKED_CHUNK];
  int32_t u, k;
  for (u = 0; u < units; u += LSTM_PACKED_CHUNK) {
    const int32_t n = units - u < LSTM_PACKED_CHUNK ? units - u : LSTM_PACKED_CHUNK;
    for (k = 0; k < n; k += 2) {
      int32_t acc[4];
      microaot_packed_set4(acc, s->bias[u + k], s->bias[u + k + 1], s->bias[u + k], s->bias[u + k + 1]);
      pair = microaot_packed_dot_2x2(pair, rows, groups, acc);
      sums0[k] = acc[0], sums0[k + 1] = acc[1], sums1[k] = acc[2], sums1[k + 1] = acc[3];
    }
    lstm_store(s, sums0, u, n, add0, out0);
    lstm_store(s, sums1, u, n, add1, out1);
  }
}

/* Units per chunk of a three-row product (its sums wait on the stack in microaot_packed_pairs3's order, then each
 * row's are gathered for lstm_store): a multiple of four, half LSTM_PACKED_CHUNK so that the frame stays as small. */
#define LSTM_PACKED_CHUNK3 16

/* Three widened rows (interleaved in `rows` as microaot_packed_pairs3 reads them: each weight word loaded once for
 * the three) against every unit, a chunk's pairs in one call of its sums mode: the rows' gates at out, out + units
 * and out + 2 * units (the input side's: nothing to add). */
MICROAOT_PACKED_OUT_OF_LINE void lstm_three_rows(const lstm_side* s, const uint32_t* rows, int16_t* out) {
  const int32_t groups = microaot_packed_groups(s->depth), units = MICROAOT_LSTM_GATES * s->state;
  int32_t sums[3 * LSTM_PACKED_CHUNK3], row[LSTM_PACKED_CHUNK3];
  microaot_packed3_job job;
  int32_t u, k, r;
  job.out = NULL, job.rows = rows, job.pair_bytes = 4 * MICROAOT_PACKED_PAIR_WORDS * groups;
  for (u = 0; u < units; u += LSTM_PACKED_CHUNK3) {
    const int32_t n = units - u < LSTM_PACKED_CHUNK3 ? units - u : LSTM_PACKED_CHUNK3;
    const int32_t* const bias = s->bias + u;
    int32_t* const end = sums + 3 * n;
    int32_t* p;
    for (p = sums, k = 0; p != end; p += 6, k += 2) { /* a pair's two biases for each row */
      p[0] = p[2] = p[4] = bias[k];
      p[1] = p[3] = p[5] = bias[k + 1];
    }
    job.weights = s->weights + (size_t)(u / 2) * MICROAOT_PACKED_PAIR_WORDS * (size_t)groups;
    job.from.sums = sums, job.end.sums_end = end;
    microaot_packed_pairs3(&job);
    for (r = 0; r < 3; ++r) {
      for (p = sums + 2 * r, k = 0; k < n; p += 6, k += 2) row[k] = p[0], row[k + 1] = p[1];
      lstm_store(s, row, u, n, NULL, out + (size_t)r * (size_t)units);
    }
  }
}

/* One widened row against every unit, four at a time (4 * state units: whole quads). */
MICROAOT_PACKED_OUT_OF_LINE void lstm_one_row(const lstm_side* s, const uint32_t* row, const int16_t* add,
                                              int16_t* out) {
  const int32_t groups = microaot_packed_groups(s->depth), units = MICROAOT_LSTM_GATES * s->state;
  const int32_t* pair = s->weights;
  int32_t sums[LSTM_PACKED_CHUNK];
  int32_t u, k;
  for (u = 0; u < units; u += LSTM_PACKED_CHUNK) {
    const int32_t n = units - u < LSTM_PACKED_CHUNK ? units - u : LSTM_PACKED_CHUNK;
    for (k = 0; k < n; k += 4) {
      microaot_packed_set4(sums + k, s->bias[u + k], s->bias[u + k + 1], s->bias[u + k + 2], s->bias[u + k + 3]);
      pair = microaot_packed_dot_1x4(pair, row, groups, sums + k);
    }
    lstm_store(s, sums, u, n, add, out);
  }
}

/* `count` rows of s->depth int8 from x, each against every unit: out row r = the gates' values (plus add row r
 * when add is not NULL). Rows three at a time where there is no add (the input side's steps), else two; widened
 * into `rows` once (three rows of whole groups at once). */
static void lstm_product(const lstm_side* s, const int8_t* x, int32_t count, uint32_t* rows, const int16_t* add,
                         int16_t* out) {
  const size_t units = (size_t)MICROAOT_LSTM_GATES * (size_t)s->state, depth = (size_t)s->depth;
  int32_t r, taken, k;
  for (r = 0; r < count; r += taken) {
    const int8_t* x0 = x + (size_t)r * depth;
    const int16_t* add0 = add != NULL ? add + (size_t)r * units : NULL;
    int16_t* out0 = out + (size_t)r * units;
    taken = count - r >= 3 && add == NULL ? 3 : count - r >= 2 ? 2 : 1;
    if (taken == 3 && depth % 4 == 0) {
      microaot_packed_widen3(x0, depth, s->depth / 4, rows);
    } else {
      for (k = 0; k < taken; ++k) microaot_packed_widen(x0 + (size_t)k * depth, s->depth, rows + 2 * k, 2 * taken);
    }
    if (taken == 3) {
      lstm_three_rows(s, rows, out0);
    } else if (taken == 2) {
      lstm_two_rows(s, rows, add0, add0 != NULL ? add0 + units : NULL, out0, out0 + units);
    } else {
      lstm_one_row(s, rows, add0, out0);
    }
  }
}

/* The element-wise work of one step (gates are Q3.12: table units are three times the value), in three passes
 * over a row's units, each with few enough values live to keep them in registers: the input gate times the
 * candidate (into the input gate's slots), the cell (TFLM's MulElementwise products, their saturating sum, the clip)
 * and its tanh (into the forget gate's slots), the hidden state. */
static void lstm_update(const microaot_lstm_params_q* p, int16_t* gates, int32_t rows, int8_t* hidden,
                        int16_t* cell) {
  const int32_t state = p->state_size;
  const int16_t* table = p->sigmoid_table;
  const int32_t round = p->cell_tanh_shift > 0 ? (int32_t)1 << (p->cell_tanh_shift - 1) : 0;
  const microaot_dsp_requant forget = microaot_dsp_requant_of(p->forget_multiplier, p->forget_shift);
  const microaot_dsp_requant input = microaot_dsp_requant_of(p->input_multiplier, p->input_shift);
  const microaot_dsp_requant out = microaot_dsp_requant_of(p->hidden_multiplier, p->hidden_shift);
  const int32_t lo = p->cell_clip >= 0 ? -p->cell_clip : INT16_MIN, hi = p->cell_clip >= 0 ? p->cell_clip : INT16_MAX;
  int32_t r, j;
  for (r = 0; r < rows; ++r, gates += MICROAOT_LSTM_GATES * state, hidden += state, cell += state) {
    /* the input and forget gates' slots take the first two passes' results once read */
    const int16_t* const forget_gate = gates + state;
    const int16_t* const candidate = gates + 2 * state;
    const int16_t* const output_gate = gates + 3 * state;
    int16_t* const added = gates;
    int16_t* const tanh_c = gates + state;
    for (j = 0; j < state; ++j) {
      const int32_t i = microaot_logistic_s16_of_units(table, 3 * gates[j]);
      const int32_t g = microaot_tanh_s16_of_units(table, 3 * candidate[j]);
      added[j] = (int16_t)microaot_dsp_ssat16(lstm_product_requantize(&input, i, g));
    }
    for (j = 0; j < state; ++j) {
      const int32_t f = microaot_logistic_s16_of_units(table, 3 * forget_gate[j]);
      const int32_t kept = microaot_dsp_ssat16(lstm_product_requantize(&forget, f, cell[j]));
      const int32_t c = microaot_clamp_s32(microaot_dsp_ssat16(kept + added[j]), lo, hi);
      /* |c * multiplier| < 2^30 (the fit rule), so the rescale is exact in 32 bits */
      const int32_t rescaled = (c * p->cell_tanh_multiplier + round) >> p->cell_tanh_shift;
      cell[j] = (int16_t)c;
      tanh_c[j] = (int16_t)microaot_tanh_s16_of_units(table, rescaled);
    }
    for (j = 0; j < state; ++j) {
      const int32_t o = microaot_logistic_s16_of_units(table, 3 * output_gate[j]);
      hidden[j] = (int8_t)microaot_clamp_s32(lstm_product_requantize(&out, tanh_c[j], o) + p->hidden_zero_point,
                                             p->hidden_min, p->hidden_max);
    }
  }
}

microaot_status MICROAOT_FN(const microaot_lstm_params_q* params, const int8_t* input, const int32_t* input_weights,
                            const int32_t* recurrent_weights, const int32_t* bias, int8_t* output_state,
                            int16_t* cell_state, int8_t* output, void* scratch) {
  const int32_t rows = params->time_major ? params->batches : 1;
  const int32_t sequences = params->time_major ? 1 : params->batches;
  const int32_t state = params->state_size, steps = params->time_steps;
  const size_t units = (size_t)MICROAOT_LSTM_GATES * (size_t)state;
  const size_t in_step = (size_t)rows * (size_t)params->input_size, out_step = (size_t)rows * (size_t)state;
  const int32_t depth = params->input_size > state ? params->input_size : state;
  uint32_t* const widened = (uint32_t*)scratch;
  int16_t* const pre = (int16_t*)(widened + 2 * MICROAOT_LSTM_PACKED_STEPS * microaot_packed_groups(depth));
  int16_t* const gates = pre + MICROAOT_LSTM_PACKED_STEPS * (size_t)rows * units;
  lstm_side in, rec;
  int32_t s, t;
  if (!microaot_fit_lstm_packed(params)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  in.weights = input_weights, in.bias = bias, in.depth = params->input_size, in.state = state;
  rec.weights = recurrent_weights, rec.bias = bias + units, rec.depth = state, rec.state = state;
  for (s = 0; s < MICROAOT_LSTM_GATES; ++s) {
    in.gate[s] = microaot_dsp_requant_of(params->gate_multiplier[s], params->gate_shift[s]);
    rec.gate[s] = microaot_dsp_requant_of(params->gate_multiplier[MICROAOT_LSTM_GATES + s],
                                  params->gate_shift[MICROAOT_LSTM_GATES + s]);
  }
  for (s = 0; s < sequences; ++s) {
    int8_t* hidden = output_state + (size_t)s * out_step;
    int16_t* cell = cell_state + (size_t)s * out_step;
    for (t = 0; t < steps; ++t) {
      const size_t step = (size_t)s * (size_t)steps + (size_t)t;
      const int16_t* step_pre = pre + (size_t)(t % MICROAOT_LSTM_PACKED_STEPS) * (size_t)rows * units;
      /* the input rows of steps t, t + 1 and t + 2 follow each other in both layouts */
      if (t % MICROAOT_LSTM_PACKED_STEPS == 0) {
        const int32_t block = steps - t < MICROAOT_LSTM_PACKED_STEPS ? steps - t : MICROAOT_LSTM_PACKED_STEPS;
        lstm_product(&in, input + step * in_step, rows * block, widened, NULL, pre);
      }
      lstm_product(&rec, hidden, rows, widened, step_pre, gates);
      lstm_update(params, gates, rows, hidden, cell);
      memcpy(output + step * out_step, hidden, out_step);
    }
  }
  return MICROAOT_STATUS_OK;
}
