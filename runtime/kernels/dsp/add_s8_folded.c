/* ADD (or SUB) int8 over the compiler's linear form (microaot/kernels/add.h) for a cpu with the DSP extension,
 * one operand broadcast (a scalar, a row constant, a per-channel vector): its term folds into the bias
 * (dsp_word_multiply.h's microaot_dsp_add_folded8), one SMLAW per element, 3.6 to 4.6 per element. The same
 * form and proof as two full operands (add_s8_linear, whose code it falls back to where an offset bias would
 * leave int32); the compiler picks it only for a walk that folds (microaot_broadcast_fold_kind). */
#include "microaot/internal/dsp_add_linear.h"
#include "microaot/internal/dsp_fold.h"

/* The folded forms (microaot/internal/dsp_fold.h): one operand broadcast, its term floor(m * q / 2^8) added to
 * the bias once (a row's value, or a table per channel); the other operand's slope m. Where an offset bias
 * would leave int32 the row takes the form's own code. */
typedef struct {
  const microaot_dsp_linear_form* f;
  microaot_dsp_fold fold;
  int32_t m, m_vector;  /* the streaming operand's slope; the broadcast one's */
  int32_t low, high;    /* the streaming operand's term's least and greatest value over the int8 range, each with 0 */
  const int8_t* vector; /* the per-channel operand */
  int32_t channels;
} linear_fold;

static linear_fold fold_of(const microaot_dsp_linear_form* f, int broadcast) {
  linear_fold k;
  const int32_t m = f->form[1 - broadcast];
  const int32_t t0 = microaot_add_linear_term(m, -128), t1 = microaot_add_linear_term(m, 127);
  k.f = f;
  k.fold = microaot_dsp_fold_of(f->lo, f->hi);
  k.m = m;
  k.m_vector = f->form[broadcast];
  k.low = t0 < t1 ? (t0 < 0 ? t0 : 0) : (t1 < 0 ? t1 : 0);
  k.high = t0 < t1 ? (t1 > 0 ? t1 : 0) : (t0 > 0 ? t0 : 0);
  k.vector = NULL;
  k.channels = 0;
  return k;
}

/* Whether every folded bias (the form's bias and the broadcast operand's term) keeps every sum within int32 once
 * offset: checked at the extremes of the broadcast operand's term. */
static int fold_fits(const linear_fold* k) {
  const int64_t t0 = microaot_add_linear_term(k->m_vector, -128), t1 = microaot_add_linear_term(k->m_vector, 127);
  const int64_t base = (int64_t)k->f->form[2] + k->fold.offset;
  return base + (t0 < t1 ? t0 : t1) + k->low >= INT32_MIN && base + (t0 < t1 ? t1 : t0) + k->high <= INT32_MAX;
}

static int32_t folded_bias(const linear_fold* k, int32_t q) {
  return k->f->form[2] + microaot_add_linear_term(k->m_vector, q) + k->fold.offset;
}

static void linear_row_form(const void* context, int32_t v, int32_t* m, int32_t* bias) {
  const linear_fold* k = (const linear_fold*)context;
  *m = k->m;
  *bias = folded_bias(k, v);
}

/* The walk's context: the form, and the folded form of a walk whose rows fold (computed once per call). */
typedef struct {
  microaot_dsp_linear_form f;
  linear_fold fold;
  int broadcast; /* the input broadcast along the rows, -1 when the rows do not fold */
} linear_walk;

static void linear_row(const void* context, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                       void* output, ptrdiff_t done, int32_t n) {
  const linear_walk* w = (const linear_walk*)context;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  if (w->broadcast >= 0 && step[w->broadcast] == 0 && step[1 - w->broadcast] == 1) {
    /* one operand is one value along the row: its term joins the bias */
    microaot_dsp_fold_row(&w->fold.fold, w->fold.m, folded_bias(&w->fold, w->broadcast == 0 ? *a : *b),
                          w->broadcast == 0 ? b : a, out, n);
    return;
  }
  microaot_dsp_linear_row(&w->f, a, b, step, out, n);
}

/* The per-channel tables: one offset bias per channel; a whole number of fours of channels repeats the first
 * row's entries. */
#define LINEAR_TABLE 256

static void linear_table(const void* context, int32_t first, int32_t n, int32_t* table) {
  const linear_fold* k = (const linear_fold*)context;
  const int32_t own = k->channels % 4 == 0 && n > k->channels ? k->channels : n;
  const int32_t base = k->f->form[2] + k->fold.offset, m = k->m_vector;
  int32_t i = 0, c = first;
  if (first + own <= k->channels) { /* no wrap: four channels a word */
    for (; i + 4 <= own; i += 4) microaot_dsp_fold_terms4(table + i, microaot_dsp_load4(k->vector + first + i), m, base);
    c += i;
  }
  for (; i < own; ++i, c = c + 1 == k->channels ? 0 : c + 1) table[microaot_dsp_fold_lane(i)] = folded_bias(k, k->vector[c]);
  microaot_dsp_fold_repeat(table, (size_t)own, (size_t)n);
}

/* n elements of a against the table, which starts again every `period` elements (a multiple of 8, or >= n). */
static void linear_table_span(const void* context, const int32_t* table, const int8_t* a, int8_t* out, int32_t n,
                              int32_t period) {
  const linear_fold* k = (const linear_fold*)context;
  const int32_t m = k->m; /* locals: a store through int8_t* could alias the struct */
  const uint32_t floor4 = k->fold.floor4, lo4 = k->fold.lo4;
  const int clamped = k->fold.clamped;
  int32_t left, at, c;
#define LINEAR_RUN(end, t)                                                                                   \
  (clamped ? microaot_dsp_add_table_run_clamped(&a, &out, end, &t, m, MICROAOT_DSP_FOLD_MASK, floor4, lo4) \
           : microaot_dsp_add_table_run(&a, &out, end, &t, m, MICROAOT_DSP_FOLD_MASK))
  MICROAOT_DSP_FOLD_PERIODS(n, period, out, table, LINEAR_RUN, &left, &at);
#undef LINEAR_RUN
  for (c = 0; c < left; ++c) out[c] = microaot_dsp_fold_element(m, a[c], table[at + microaot_dsp_fold_lane(c)], floor4, lo4, clamped);
}

/* The per-channel walk when the tables fit int32 (1), else 0 and nothing written. */
static int linear_channels(const microaot_dsp_linear_form* f, int vector_input, const int8_t* full,
                           const int8_t* vector, int8_t* out, int32_t rows, int32_t channels) {
  int32_t table[LINEAR_TABLE];
  linear_fold k = fold_of(f, vector_input);
  k.vector = vector;
  k.channels = channels;
  return fold_fits(&k) && microaot_dsp_fold_channels(&k, linear_table, linear_table_span, full, out, rows, channels,
                                                     LINEAR_TABLE, table);
}

void microaot_add_s8_folded(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  linear_walk w;
  int broadcast = 0, kind;
  w.f = microaot_dsp_linear_form_of(params, form);
  w.broadcast = -1;
  kind = microaot_broadcast_fold_kind(params->num_dims, params->output_shape, params->input1_strides,
                                      params->input2_strides, &broadcast);
  if (kind == MICROAOT_FOLD_CHANNELS && linear_channels(&w.f, broadcast, broadcast == 0 ? input2 : input1,
                                                       broadcast == 0 ? input1 : input2, output, params->output_shape[0],
                                                       params->output_shape[1])) {
    return;
  }
  if (kind == MICROAOT_FOLD_ROWS) {
    const int32_t* const strides[2] = {params->input1_strides, params->input2_strides};
    const int8_t* const values[2] = {input1, input2};
    w.fold = fold_of(&w.f, broadcast);
    w.broadcast = fold_fits(&w.fold) ? broadcast : -1;
    if (w.broadcast >= 0 && microaot_dsp_fold_rows(&w.fold, linear_row_form, &w.fold.fold, params->num_dims,
                                                   params->output_shape, strides[broadcast], strides[1 - broadcast],
                                                   values[broadcast], values[1 - broadcast], output)) {
      return;
    }
  }
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &w, inputs, output, linear_row);
}
