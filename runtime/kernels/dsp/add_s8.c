/* ADD int8 for a cpu with the DSP extension, bit-exact with the portable kernel (TFLM's arithmetic: inputs
 * shifted left by 20, rescaled to a common scale, summed, rescaled to the output). Each rescaling is one
 * SMMLAR: for y = 2x, (y * m + 2^31) >> 32 is TFLM's rounding doubling high multiply of x and m, and the
 * accumulator adds the rounding of the right shift that follows, 2^(e-1) less one for a negative value
 * (ties away from zero). No branch on the values; the constants are computed once per call.
 * Other parameters (a left shift other than 20, shifts > 0, offsets beyond +-128) take the general code. */
#include "microaot/internal/dsp_dot.h"
#include "microaot/kernels/add.h"

/* The general code: each rescaling by microaot_dsp_requantize. */
#define DSP_ADD_RESCALED(p, k, q)                                                                        \
  microaot_dsp_requantize(((q) + (p)->input##k##_offset) * ((int32_t)1 << (p)->left_shift),              \
                          (p)->input##k##_multiplier, (int)(p)->input##k##_shift)
#define DSP_ADD_QUANTIZED(p, a, b)                                                                       \
  microaot_clamp_s32(microaot_dsp_requantize(DSP_ADD_RESCALED(p, 1, a) + DSP_ADD_RESCALED(p, 2, b),      \
                                             (p)->output_multiplier, (int)(p)->output_shift) +           \
                         (p)->output_offset,                                                             \
                     (p)->activation_min, (p)->activation_max)

void microaot_add_s8_general(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                             int8_t* output);
MICROAOT_DEFINE_BINARY_KERNEL(add_s8_general, microaot_add_params_q, int8_t, DSP_ADD_QUANTIZED)

/* x * multiplier * 2^-exponent rounded as TFLM rounds, given y = 2x (exponent in [0, 31], multiplier >= 0). */
typedef struct {
  int32_t multiplier;
  int32_t rounding;  /* 2^(exponent - 1), 0 for exponent 0 */
  int32_t negative;  /* -1 when a negative value rounds one lower (exponent > 0), else 0 */
  int32_t exponent;
} dsp_rescale;

static dsp_rescale rescale_of(int32_t multiplier, int32_t shift) {
  dsp_rescale r;
  r.multiplier = multiplier;
  r.exponent = -shift;
  r.rounding = shift < 0 ? (int32_t)1 << (-shift - 1) : 0;
  r.negative = shift < 0 ? -1 : 0;
  return r;
}

static inline int32_t rescale_doubled(int32_t doubled, dsp_rescale r) {
  const int32_t adjust = r.rounding + ((doubled >> 31) & r.negative);
  return microaot_dsp_smmlar(doubled, r.multiplier, adjust) >> r.exponent;
}

/* With the left shift 20, 2 * (q + offset) * 2^20 = q * 2^21 + offset * 2^21 fits in int32. */
typedef struct {
  dsp_rescale input1, input2, output;
  int32_t offset1_doubled, offset2_doubled; /* input offsets * 2^21 */
  int32_t offset1_exact, offset2_exact;     /* input offsets * 2^19 (add_exact) */
  int32_t activation_min, activation_max;   /* the output offset is in output.rounding */
} dsp_add_constants;

static int fits_fast_path(const microaot_add_params_q* p) {
  const int32_t shifts[3] = {p->input1_shift, p->input2_shift, p->output_shift};
  const int32_t multipliers[3] = {p->input1_multiplier, p->input2_multiplier, p->output_multiplier};
  const int32_t offsets[3] = {p->input1_offset, p->input2_offset, p->output_offset};
  int64_t output_offset_term;
  int k;
  for (k = 0; k < 3; ++k) {
    if (shifts[k] > 0 || shifts[k] < -31 || multipliers[k] < 0 || offsets[k] < -128 || offsets[k] > 128) return 0;
  }
  /* |q + offset| <= 256, so each rescaled input is below 2^28 + 1 and twice their sum fits; the output's
   * rounding term 2^(e-1) and its offset times 2^e must fit beside that sum's high word (below 2^29 + 2) */
  output_offset_term = (int64_t)(p->output_offset < 0 ? -p->output_offset : p->output_offset) << -p->output_shift;
  output_offset_term += p->output_shift < 0 ? (int64_t)1 << (-p->output_shift - 1) : 0;
  return p->left_shift == 20 && output_offset_term + (1 << 29) + 2 < ((int64_t)1 << 31);
}

/* n outputs from a and b, each next element step1 (step2) further. */
static inline void add_elements(const dsp_add_constants* constants, const int8_t* a, const int8_t* b,
                                int32_t step1, int32_t step2, int8_t* out, int32_t n) {
  const dsp_add_constants k = *constants; /* locals: a store through int8_t* could alias the struct */
  int32_t c;
  for (c = 0; c < n; ++c, a += step1, b += step2) {
    const int32_t x1 = rescale_doubled(*a * (1 << 21) + k.offset1_doubled, k.input1);
    const int32_t x2 = rescale_doubled(*b * (1 << 21) + k.offset2_doubled, k.input2);
    out[c] = (int8_t)microaot_clamp_s32(rescale_doubled((x1 + x2) * 2, k.output), k.activation_min,
                                        k.activation_max);
  }
}

/* The flat path (no broadcasting, the clamp [-128, 127], every right shift >= 1 but an exact input's): one
 * loop per kind of input pair, all its constants in registers. A scaled input rescales by SMMLAR without the
 * sign mask (its shift is >= 1); an exact one has the multiplier 2^30 and shift 0, which TFLM's Prepare gives
 * the input of the larger scale: (q + offset) * 2^20 * 2^30 / 2^31 is (q + offset) * 2^19 exactly. */
static inline int32_t add_scaled(int32_t doubled, dsp_rescale r) {
  return microaot_dsp_smmlar(doubled, r.multiplier, r.rounding + (doubled >> 31)) >> r.exponent;
}
#define DSP_ADD_SCALED(q, k, i) add_scaled((q) * (1 << 21) + (k).offset##i##_doubled, (k).input##i)
#define DSP_ADD_EXACT(q, k, i) ((q) * (1 << 19) + (k).offset##i##_exact)
#define DSP_ADD_FLAT_LOOP(name, INPUT1, INPUT2)                                                        \
  static void name(const dsp_add_constants* constants, const int8_t* a, const int8_t* b, int8_t* out, \
                   int32_t n) {                                                                       \
    const dsp_add_constants k = *constants;                                                           \
    int32_t c;                                                                                        \
    for (c = 0; c < n; ++c) {                                                                         \
      const int32_t sum = INPUT1(a[c], k, 1) + INPUT2(b[c], k, 2);                                    \
      out[c] = (int8_t)microaot_dsp_ssat8(add_scaled(sum * 2, k.output));                             \
    }                                                                                                 \
  }
DSP_ADD_FLAT_LOOP(add_flat_scaled_scaled, DSP_ADD_SCALED, DSP_ADD_SCALED)
DSP_ADD_FLAT_LOOP(add_flat_scaled_exact, DSP_ADD_SCALED, DSP_ADD_EXACT)
DSP_ADD_FLAT_LOOP(add_flat_exact_exact, DSP_ADD_EXACT, DSP_ADD_EXACT)

static int is_exact(const dsp_rescale* r) { return r->exponent == 0 && r->multiplier == (1 << 30); }

/* The flat path when it applies (1), input 1 the scaled one of a mixed pair (a sum does not depend on the
 * order of its terms). */
static int add_flat(const microaot_add_params_q* p, dsp_add_constants* k, const int8_t* a, const int8_t* b,
                    int8_t* out) {
  const int exact1 = is_exact(&k->input1), exact2 = is_exact(&k->input2);
  dsp_add_constants swapped = *k;
  if (p->num_dims != 0 || p->activation_min != -128 || p->activation_max != 127 || k->output.exponent < 1 ||
      (!exact1 && k->input1.exponent < 1) || (!exact2 && k->input2.exponent < 1)) {
    return 0;
  }
  if (exact1 && exact2) {
    add_flat_exact_exact(k, a, b, out, p->flat_size);
  } else if (exact1) {
    swapped.input1 = k->input2, swapped.offset1_doubled = k->offset2_doubled;
    swapped.offset2_exact = k->offset1_exact;
    add_flat_scaled_exact(&swapped, b, a, out, p->flat_size);
  } else if (exact2) {
    add_flat_scaled_exact(k, a, b, out, p->flat_size);
  } else {
    add_flat_scaled_scaled(k, a, b, out, p->flat_size);
  }
  return 1;
}

static void add_row(const void* constants, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                    void* output, ptrdiff_t done, int32_t n) {
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  if (step[0] == 1 && step[1] == 1) { /* no broadcasting: the steps as constants free two registers */
    add_elements((const dsp_add_constants*)constants, a, b, 1, 1, out, n);
  } else {
    add_elements((const dsp_add_constants*)constants, a, b, step[0], step[1], out, n);
  }
}

void microaot_add_s8(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output) {
  dsp_add_constants k;
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  if (!fits_fast_path(params)) {
    microaot_add_s8_general(params, input1, input2, output);
    return;
  }
  k.input1 = rescale_of(params->input1_multiplier, params->input1_shift);
  k.input2 = rescale_of(params->input2_multiplier, params->input2_shift);
  k.output = rescale_of(params->output_multiplier, params->output_shift);
  k.offset1_doubled = params->input1_offset * (1 << 21);
  k.offset2_doubled = params->input2_offset * (1 << 21);
  k.offset1_exact = params->input1_offset * (1 << 19);
  k.offset2_exact = params->input2_offset * (1 << 19);
  /* (v + offset * 2^e) >> e = (v >> e) + offset: the output offset joins the rounding term */
  k.output.rounding =
      (int32_t)(k.output.rounding + (int64_t)params->output_offset * ((int64_t)1 << k.output.exponent));
  k.activation_min = params->activation_min;
  k.activation_max = params->activation_max;
  if (add_flat(params, &k, input1, input2, output)) return;
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &k, inputs, output, add_row);
}
