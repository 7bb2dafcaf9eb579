/* ADD (or SUB) int8 over the compiler's linear form (microaot/kernels/add.h) for a cpu with the DSP extension.
 * Two full operands: four elements per pass, one word of each input, its bytes 1 and 3 (and, shifted left by 8,
 * 0 and 2) masked into the top bytes of the 16-bit lanes, so that each lane is q * 2^8 and SMLAWB / SMLAWT give
 * the form's floor(m * q / 2^8) in one instruction with the sum; SSAT #8 with ASR #16 is the floor and the clamp
 * to int8. About six instructions per element against twenty for the rescaling of microaot_add_s8.
 * One operand broadcast (a scalar, a row constant, a per-channel vector): its term folds into the bias
 * (dsp_word_multiply.h's microaot_dsp_add_folded8), one SMLAW per element, 3.75 to 4.25 per element. */
#include "microaot/internal/dsp_fold.h"
#include "microaot/kernels/add.h"

#define LINEAR_LANE_MASK 0xFF00FF00u

/* Four bytes clamped to [lo, hi] (each byte of lo4 and hi4 holding the bound): SSUB8 sets a byte's GE flag where
 * its difference is >= 0 and SEL picks by them, the four at once in place of four loads, compares and stores. */
static inline void linear_clamp4(int8_t* out, uint32_t lo4, uint32_t hi4) {
#if MICROAOT_DSP_ASM
  uint32_t w, ge;
  __asm__("ldr %[w], [%[out]]\n\t"
          "ssub8 %[ge], %[w], %[lo]\n\t"
          "sel %[w], %[w], %[lo]\n\t"
          "ssub8 %[ge], %[hi], %[w]\n\t"
          "sel %[w], %[w], %[hi]\n\t"
          "str %[w], [%[out]]"
          : [w] "=&r"(w), [ge] "=&r"(ge), "+m"(*(int8_t(*)[4])out)
          : [out] "r"(out), [lo] "r"(lo4), [hi] "r"(hi4)
          : "cc");
#else
  const int32_t lo = (int8_t)(lo4 & 0xFFu), hi = (int8_t)(hi4 & 0xFFu);
  int c;
  for (c = 0; c < 4; ++c) out[c] = (int8_t)microaot_clamp_s32(out[c], lo, hi);
#endif
}

typedef struct {
  int32_t form[3]; /* m1, m2, bias: one array, as microaot_add_linear_output reads it */
  int32_t lo, hi;
} linear_form;

/* n elements of contiguous inputs: four at a time, then one by one. */
static void linear_flat(const linear_form* f, const int8_t* a, const int8_t* b, int8_t* out, int32_t n) {
  int8_t* const end4 = out + (n & ~3);
  const int32_t m1 = f->form[0], m2 = f->form[1], bias = f->form[2], lo = f->lo, hi = f->hi;
  const int clamped = lo != -128 || hi != 127;
  const uint32_t lo4 = 0x01010101u * (uint8_t)lo, hi4 = 0x01010101u * (uint8_t)hi;
  int32_t c;
  if (!clamped) { /* the int8 range: SSAT is the whole clamp */
    while (out != end4) microaot_dsp_add_linear4(&a, &b, &out, m1, m2, bias, LINEAR_LANE_MASK);
  }
  while (out != end4) {
    int8_t* const first = out;
    microaot_dsp_add_linear4(&a, &b, &out, m1, m2, bias, LINEAR_LANE_MASK);
    linear_clamp4(first, lo4, hi4);
  }
  for (c = 0; c < (n & 3); ++c) out[c] = (int8_t)microaot_add_linear_output(f->form, a[c], b[c], lo, hi);
}

/* The folded forms (microaot/internal/dsp_fold.h): one operand broadcast, its term floor(m * q / 2^8) added to
 * the bias once (a row's value, or a table per channel); the other operand's slope m. Where an offset bias
 * would leave int32 the row takes the form's own code. */
typedef struct {
  const linear_form* f;
  microaot_dsp_fold fold;
  int32_t m, m_vector;  /* the streaming operand's slope; the broadcast one's */
  int32_t low, high;    /* the streaming operand's term's least and greatest value over the int8 range, each with 0 */
  const int8_t* vector; /* the per-channel operand */
  int32_t channels;
} linear_fold;

static linear_fold fold_of(const linear_form* f, int broadcast) {
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

/* The walk's context: the form, and the folded form of a walk whose rows fold (computed once per call). */
typedef struct {
  linear_form f;
  linear_fold fold;
  int broadcast; /* the input broadcast along the rows, -1 when the rows do not fold */
} linear_walk;

static void linear_row(const void* context, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                       void* output, ptrdiff_t done, int32_t n) {
  const linear_walk* w = (const linear_walk*)context;
  const linear_form* f = &w->f;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  int32_t c;
  if (step[0] == 1 && step[1] == 1) {
    linear_flat(f, a, b, out, n);
    return;
  }
  if (w->broadcast >= 0 && step[w->broadcast] == 0 && step[1 - w->broadcast] == 1) {
    /* one operand is one value along the row: its term joins the bias */
    microaot_dsp_fold_row(&w->fold.fold, w->fold.m, folded_bias(&w->fold, w->broadcast == 0 ? *a : *b),
                          w->broadcast == 0 ? b : a, out, n);
    return;
  }
  for (c = 0; c < n; ++c) out[c] = (int8_t)microaot_add_linear_output(f->form, a[c * step[0]], b[c * step[1]], f->lo, f->hi);
}

/* The per-channel tables: one offset bias per channel; a whole number of fours of channels repeats the first
 * row's entries. */
#define LINEAR_TABLE 256

static void linear_table(const void* context, int32_t first, int32_t n, int32_t* table) {
  const linear_fold* k = (const linear_fold*)context;
  const int32_t own = k->channels % 4 == 0 && n > k->channels ? k->channels : n;
  int32_t i, c = first;
  for (i = 0; i < own; ++i, c = c + 1 == k->channels ? 0 : c + 1) table[microaot_dsp_fold_lane(i)] = folded_bias(k, k->vector[c]);
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
static int linear_channels(const linear_form* f, int vector_input, const int8_t* full, const int8_t* vector,
                           int8_t* out, int32_t rows, int32_t channels) {
  int32_t table[LINEAR_TABLE];
  linear_fold k = fold_of(f, vector_input);
  k.vector = vector;
  k.channels = channels;
  return fold_fits(&k) && microaot_dsp_fold_channels(&k, linear_table, linear_table_span, full, out, rows, channels,
                                                     LINEAR_TABLE, table);
}

void microaot_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  linear_walk w;
  int broadcast = 0, kind;
  w.f.form[0] = form[0];
  w.f.form[1] = form[1];
  w.f.form[2] = form[2];
  w.f.lo = params->activation_min;
  w.f.hi = params->activation_max;
  w.broadcast = -1;
  if (params->num_dims == 0 && w.f.lo == -128 && w.f.hi == 127) { /* the int8 range: SSAT is the whole clamp */
    linear_flat(&w.f, input1, input2, output, params->flat_size);
    return;
  }
  kind = microaot_broadcast_fold_kind(params->num_dims, params->output_shape, params->input1_strides,
                                      params->input2_strides, &broadcast);
  if (kind == MICROAOT_FOLD_CHANNELS && linear_channels(&w.f, broadcast, broadcast == 0 ? input2 : input1,
                                                       broadcast == 0 ? input1 : input2, output, params->output_shape[0],
                                                       params->output_shape[1])) {
    return;
  }
  if (kind == MICROAOT_FOLD_ROWS) {
    w.fold = fold_of(&w.f, broadcast);
    w.broadcast = fold_fits(&w.fold) ? broadcast : -1;
  }
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &w, inputs, output, linear_row);
}
