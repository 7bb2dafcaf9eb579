/* MUL int8 with one operand broadcast (a scalar, a row constant, a per-channel vector) for a cpu with the DSP
 * extension, over forms the compiler fitted and proved on all 65,536 pairs of input values (compiler/ops/
 * mul_folded.h): for each value v of the broadcast operand a slope m[v] and an offset bias b[v] such that every
 * output is microaot_dsp_fold_element(m[v], q, b[v]) of the other operand's q (microaot/internal/dsp_fold.h). A
 * row of one value: one SMLAW per element (a loop of 3.625 instructions per element); a per-channel vector: a
 * table of {m, b} per channel on the stack, two channels per LDM (4.125). Bit-exact with microaot_mul_s8. */
#include "microaot/internal/dsp_fold.h"
#include "microaot/kernels/mul.h"

#define MUL_TABLE 128 /* channels per table, two words each */

typedef struct {
  const int32_t* slopes; /* [v + 128] */
  const int32_t* biases; /* [v + 128], offset */
  int broadcast;         /* the input whose value indexes them */
  microaot_dsp_fold fold;
  const int8_t* vector;
  int32_t channels;
} mul_fold;

static void mul_row(const void* context, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                    void* output, ptrdiff_t done, int32_t n) {
  const mul_fold* k = (const mul_fold*)context;
  const int8_t* const values[2] = {(const int8_t*)inputs[0] + at[0], (const int8_t*)inputs[1] + at[1]};
  const int8_t* v = values[k->broadcast];
  const int8_t* q = values[1 - k->broadcast];
  const int32_t v_step = step[k->broadcast], q_step = step[1 - k->broadcast];
  int8_t* out = (int8_t*)output + done;
  int32_t c;
  if (v_step == 0 && q_step == 1) {
    microaot_dsp_fold_row(&k->fold, k->slopes[*v + 128], k->biases[*v + 128], q, out, n);
    return;
  }
  for (c = 0; c < n; ++c) {
    const int32_t value = v[c * v_step] + 128;
    out[c] = microaot_dsp_fold_element(k->slopes[value], q[c * q_step], k->biases[value], k->fold.floor4, k->fold.lo4, 1);
  }
}

static void mul_row_form(const void* context, int32_t v, int32_t* m, int32_t* bias) {
  const mul_fold* k = (const mul_fold*)context;
  *m = k->slopes[v + 128];
  *bias = k->biases[v + 128];
}

/* The pairs {m, b} of n elements from channel `first`; a whole number of fours of channels repeats the first
 * row's pairs. */
static void mul_table(const void* context, int32_t first, int32_t n, int32_t* table) {
  const mul_fold* k = (const mul_fold*)context;
  const int32_t own = k->channels % 4 == 0 && n > k->channels ? k->channels : n;
  const int32_t *slopes = k->slopes + 128, *biases = k->biases + 128; /* by the signed value */
  int32_t i = 0, c = first;
  if (first + own <= k->channels) { /* no wrap: four channels a word, in the lanes' order */
    for (; i + 4 <= own; i += 4) {
      const uint32_t w = microaot_dsp_load4(k->vector + first + i);
      int32_t* const pairs = table + 2 * i;
      int j;
      for (j = 0; j < 4; ++j) {
        const int32_t value = (int8_t)(uint8_t)(w >> (8 * microaot_dsp_fold_lane(j)));
        pairs[2 * j] = slopes[value];
        pairs[2 * j + 1] = biases[value];
      }
    }
    c += i;
  }
  for (; i < own; ++i, c = c + 1 == k->channels ? 0 : c + 1) {
    const int32_t value = k->vector[c] + 128;
    int32_t* const pair = table + 2 * microaot_dsp_fold_lane(i);
    pair[0] = k->slopes[value];
    pair[1] = k->biases[value];
  }
  microaot_dsp_fold_repeat(table, 2 * (size_t)own, 2 * (size_t)n);
}

/* n elements of a against the table, which starts again every `period` elements (a multiple of 8, or >= n). */
static void mul_span(const void* context, const int32_t* table, const int8_t* a, int8_t* out, int32_t n,
                     int32_t period) {
  const mul_fold* k = (const mul_fold*)context;
  const uint32_t floor4 = k->fold.floor4, lo4 = k->fold.lo4; /* locals: a store through int8_t* could alias */
  const int clamped = k->fold.clamped;
  int32_t left, at, c;
#define MUL_RUN(end, t)                                                                                 \
  (clamped ? microaot_dsp_mul_table_run_clamped(&a, &out, end, &t, MICROAOT_DSP_FOLD_MASK, floor4, lo4) \
           : microaot_dsp_mul_table_run(&a, &out, end, &t, MICROAOT_DSP_FOLD_MASK))
  MICROAOT_DSP_FOLD_PERIODS(n, period, out, table, MUL_RUN, &left, &at);
#undef MUL_RUN
  for (c = 0; c < left; ++c) {
    const int32_t* pair = table + 2 * (at + microaot_dsp_fold_lane(c));
    out[c] = microaot_dsp_fold_element(pair[0], a[c], pair[1], floor4, lo4, 1);
  }
}

void microaot_mul_s8_folded(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* forms, int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  int32_t table[2 * MUL_TABLE];
  mul_fold k;
  int broadcast = 0, kind;
  k.slopes = forms;
  k.biases = forms + 256;
  k.broadcast = forms[512];
  k.fold = microaot_dsp_fold_of(params->activation_min, params->activation_max);
  inputs[0] = input1;
  inputs[1] = input2;
  kind = microaot_broadcast_fold_kind(params->num_dims, params->output_shape, params->input1_strides,
                                      params->input2_strides, &broadcast);
  if (kind == MICROAOT_FOLD_CHANNELS && broadcast == k.broadcast) {
    k.vector = broadcast == 0 ? input1 : input2;
    k.channels = params->output_shape[1];
    if (microaot_dsp_fold_channels(&k, mul_table, mul_span, broadcast == 0 ? input2 : input1, output,
                                   params->output_shape[0], k.channels, MUL_TABLE, table)) {
      return;
    }
  }
  if (kind == MICROAOT_FOLD_ROWS && broadcast == k.broadcast) {
    const int32_t* const strides[2] = {params->input1_strides, params->input2_strides};
    const int8_t* const values[2] = {input1, input2};
    if (microaot_dsp_fold_rows(&k, mul_row_form, &k.fold, params->num_dims, params->output_shape,
                               strides[broadcast], strides[1 - broadcast], values[broadcast],
                               values[1 - broadcast], output)) {
      return;
    }
  }
  microaot_broadcast_walk(&walk, &k, inputs, output, mul_row);
}
