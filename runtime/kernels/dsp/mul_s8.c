/* MUL int8 for a cpu with the DSP extension, bit-exact with the portable kernel (TFLM's MulElementwise: the
 * product of the offset inputs, rescaled by one MultiplyByQuantizedMultiplier). Four elements per pass: each
 * input word widened with its offset by SXTAB16 (input 1's lanes doubled by SADD16), the doubled products by
 * SMULBB / SMULTT, and the rescaling as in dsp/add_s8.c: for y = 2p, SMMLAR(y, m, rounding) is TFLM's rounding
 * doubling high multiply plus the rounding of the right shift that follows (2^(e-1) plus the output offset
 * times 2^e, one less for a negative product: ties away from zero), then >> e and SSAT. About 8 instructions
 * per element against 53 for the portable kernel. Other parameters (a left shift, a right shift of 0, offsets
 * beyond +-128) take the general code. Contiguous runs pack the outputs by word as the linear forms do
 * (microaot_dsp_mul_run: the product's sum shifted so that its high half is the output, 8.2 per element). */
#include "microaot/internal/dsp_dot.h"
#include "microaot/internal/dsp_fold.h"
#include "microaot/kernels/mul.h"

/* The general code, also for the odd elements of a row. */
void microaot_mul_s8_general(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                             int8_t* output);
MICROAOT_DEFINE_BINARY_KERNEL(mul_s8_general, microaot_mul_params_q, int8_t, MICROAOT_MUL_QUANTIZED)

typedef struct {
  uint32_t offset1, offset2; /* the input offsets in both 16-bit lanes */
  int32_t multiplier;
  int32_t rounding; /* 2^(e-1) + output offset * 2^e */
  int32_t exponent; /* e, the right shift, >= 1 */
  int32_t lo, hi;   /* the clamp */
  uint32_t lo4, hi4; /* its bounds in each byte */
} mul_constants;

/* The packed loop's (microaot_dsp_mul_run) where `packs`: the rounding term with the packing's offset c * 2^e, the
 * left shift 16 - e, the clamp's words. Apart from mul_constants, which the four-at-a-time loops copy per row. */
typedef struct {
  int packs;
  int32_t rounding, shift;
  microaot_dsp_fold fold;
} mul_packing;

typedef struct {
  mul_constants k;
  mul_packing packing;
} mul_context;

/* |q + offset| <= 256, so |2p| <= 2^17 and the high word of 2p * m is below 2^17; the rounding term beside it
 * must stay within int32. */
static int fits_fast_path(const microaot_mul_params_q* p) {
  int64_t rounding;
  if (p->output_shift > -1 || p->output_shift < -31 || p->output_multiplier < 0 || p->input1_offset < -128 ||
      p->input1_offset > 128 || p->input2_offset < -128 || p->input2_offset > 128) {
    return 0;
  }
  rounding = (int64_t)(p->output_offset < 0 ? -p->output_offset : p->output_offset) << -p->output_shift;
  rounding += (int64_t)1 << (-p->output_shift - 1);
  return rounding + (1 << 17) + 2 < ((int64_t)1 << 31);
}

/* Whether microaot_dsp_mul_sum keeps every sum within int32, and its constants: |v| <= 2^16 (|2p| <= 2^17,
 * m < 2^31), so the sums lie in [r - 1 - 2^16, r + 2^16] before the shift by 16 - e (e <= 16). */
static mul_packing packing_of(const mul_constants* k) {
  mul_packing pk;
  int64_t r;
  pk.fold = microaot_dsp_fold_of(k->lo, k->hi);
  r = (int64_t)k->rounding + (int64_t)(pk.fold.offset >> 16) * ((int64_t)1 << k->exponent);
  pk.shift = 16 - k->exponent;
  pk.packs = pk.shift >= 0 && (r - 1 - 65536) * ((int64_t)1 << pk.shift) >= INT32_MIN &&
             (r + 65536) * ((int64_t)1 << pk.shift) <= INT32_MAX;
  pk.rounding = pk.packs ? (int32_t)r : 0;
  return pk;
}

/* One element from its doubled product. */
static inline int32_t mul_output(int32_t doubled, int32_t m, int32_t rounding, int32_t e) {
  return microaot_dsp_ssat8(microaot_dsp_smmlar(doubled, m, rounding + (doubled >> 31)) >> e);
}

/* out[k] = v[k] (each in [-128, 127]) clamped to [lo, hi], each byte of lo4 and hi4 holding the bound: the four
 * packed into a word and clamped at once, SSUB8 setting a byte's GE flag where its difference is >= 0 and SEL
 * picking by them (10 instructions against 16 for compares and byte stores). */
static inline void mul_store4_clamped(int32_t v0, int32_t v1, int32_t v2, int32_t v3, int8_t* out, uint32_t lo4,
                                      uint32_t hi4) {
#if MICROAOT_DSP_ASM
  int32_t ge;
  __asm__("pkhbt %[v0], %[v0], %[v2], lsl #16\n\t"
          "pkhbt %[v1], %[v1], %[v3], lsl #16\n\t"
          "uxtb16 %[v0], %[v0]\n\t"
          "uxtb16 %[v1], %[v1]\n\t"
          "orr %[v0], %[v0], %[v1], lsl #8\n\t"
          "ssub8 %[ge], %[v0], %[lo]\n\t"
          "sel %[v0], %[v0], %[lo]\n\t"
          "ssub8 %[ge], %[hi], %[v0]\n\t"
          "sel %[v0], %[v0], %[hi]\n\t"
          "str %[v0], [%[out]]"
          : [v0] "+&r"(v0), [v1] "+&r"(v1), [ge] "=&r"(ge), "=m"(*(int8_t(*)[4])out)
          : [v2] "r"(v2), [v3] "r"(v3), [out] "r"(out), [lo] "r"(lo4), [hi] "r"(hi4)
          : "cc");
#else
  const int32_t lo = (int8_t)(lo4 & 0xFFu), hi = (int8_t)(hi4 & 0xFFu);
  out[0] = (int8_t)microaot_clamp_s32(v0, lo, hi);
  out[1] = (int8_t)microaot_clamp_s32(v1, lo, hi);
  out[2] = (int8_t)microaot_clamp_s32(v2, lo, hi);
  out[3] = (int8_t)microaot_clamp_s32(v3, lo, hi);
#endif
}

/* SMULBB (SMULTT): the product of the bottom (top) lanes, without an accumulator register. */
#if MICROAOT_DSP_ASM
#define MUL_SMUL(lanes)                                                   \
  static inline int32_t mul_smul##lanes(uint32_t x, uint32_t y) {         \
    int32_t r;                                                            \
    __asm__("smul" #lanes " %0, %1, %2" : "=r"(r) : "r"(x), "r"(y));      \
    return r;                                                             \
  }
MUL_SMUL(bb)
MUL_SMUL(tt)
#undef MUL_SMUL
#else
static inline int32_t mul_smulbb(uint32_t x, uint32_t y) { return microaot_dsp_smlabb(x, y, 0); }
static inline int32_t mul_smultt(uint32_t x, uint32_t y) { return microaot_dsp_smlatt(x, y, 0); }
#endif

/* Four elements from a word of each input (wb: four values of input 2, or one replicated). */
static inline void mul4(const mul_constants* k, uint32_t wa, uint32_t wb, int clamped, int8_t* out) {
  const uint32_t x02 = microaot_dsp_sxtab16(k->offset1, wa), x13 = microaot_dsp_sxtab16_ror8(k->offset1, wa);
  const uint32_t y02 = microaot_dsp_sxtab16(k->offset2, wb), y13 = microaot_dsp_sxtab16_ror8(k->offset2, wb);
  const uint32_t d02 = microaot_dsp_sadd16(x02, x02), d13 = microaot_dsp_sadd16(x13, x13);
  const int32_t v0 = mul_output(mul_smulbb(d02, y02), k->multiplier, k->rounding, k->exponent);
  const int32_t v1 = mul_output(mul_smulbb(d13, y13), k->multiplier, k->rounding, k->exponent);
  const int32_t v2 = mul_output(mul_smultt(d02, y02), k->multiplier, k->rounding, k->exponent);
  const int32_t v3 = mul_output(mul_smultt(d13, y13), k->multiplier, k->rounding, k->exponent);
  if (clamped) {
    mul_store4_clamped(v0, v1, v2, v3, out, k->lo4, k->hi4);
  } else {
    out[0] = (int8_t)v0, out[1] = (int8_t)v1, out[2] = (int8_t)v2, out[3] = (int8_t)v3;
  }
}

/* n elements, one by one, each next element of input 2 step2 further. */
static void mul_tail(const mul_constants* k, const int8_t* a, const int8_t* b, int32_t step2, int8_t* out,
                     int32_t n) {
  const int32_t offset1 = (int32_t)(k->offset1 << 16) >> 16, offset2 = (int32_t)(k->offset2 << 16) >> 16;
  int32_t c;
  for (c = 0; c < n; ++c, b += step2) {
    const int32_t doubled = 2 * (a[c] + offset1) * (*b + offset2);
    out[c] = (int8_t)microaot_clamp_s32(mul_output(doubled, k->multiplier, k->rounding, k->exponent), k->lo, k->hi);
  }
}

/* The four-at-a-time loops, one per kind of input 2 (contiguous, or one value) and clamp, so that each keeps its
 * constants in registers and tests nothing per pass. */
#define MUL_LOOP(name, CLAMPED, SCALAR)                                                                        \
  static void name(const mul_constants* constants, const int8_t* a, const int8_t* b, int8_t* out, int32_t n) { \
    const mul_constants k = *constants; /* locals: a store through int8_t* could alias the struct */          \
    const uint32_t one = SCALAR ? 0x01010101u * (uint8_t)*b : 0u; /* b is read past its end otherwise */        \
    int8_t* const end = out + (n & ~3);                                                                        \
    for (; out != end; a += 4, b += SCALAR ? 0 : 4, out += 4) {                                                \
      mul4(&k, microaot_dsp_load4(a), SCALAR ? one : microaot_dsp_load4(b), CLAMPED, out);                     \
    }                                                                                                          \
    mul_tail(&k, a, b, SCALAR ? 0 : 1, out, n & 3);                                                           \
  }
MUL_LOOP(mul_flat, 0, 0)
MUL_LOOP(mul_flat_clamped, 1, 0)
MUL_LOOP(mul_scalar, 0, 1)
MUL_LOOP(mul_scalar_clamped, 1, 1)
#undef MUL_LOOP

/* n elements of contiguous inputs (or input 2 one value, step2 0). */
static void mul_elements(const mul_constants* k, const int8_t* a, const int8_t* b, int32_t step2, int8_t* out,
                         int32_t n) {
  const int clamped = k->lo != -128 || k->hi != 127;
  if (step2 == 0) {
    (clamped ? mul_scalar_clamped : mul_scalar)(k, a, b, out, n);
  } else {
    (clamped ? mul_flat_clamped : mul_flat)(k, a, b, out, n);
  }
}

/* n elements of contiguous inputs, eight at a time packed where the sums fit (8.2 instructions per element, 8.7
 * clamped), then by mul_elements; a function of its own, so that short rows do not pay the packed loops' frame. */
static void mul_contiguous(const mul_constants* k, const mul_packing* pk, const int8_t* a, const int8_t* b,
                           int8_t* out, int32_t n) {
  if (n >= 8 && pk->packs) {
    int8_t* const end8 = out + (n & ~7);
    if (k->lo != -128 || k->hi != 127) {
      microaot_dsp_mul_run_clamped(&a, &b, &out, end8, k->offset1, k->offset2, k->multiplier, pk->rounding,
                                   pk->shift, pk->fold.floor4, pk->fold.lo4);
    } else {
      microaot_dsp_mul_run(&a, &b, &out, end8, k->offset1, k->offset2, k->multiplier, pk->rounding, pk->shift);
    }
    n &= 7;
  }
  mul_elements(k, a, b, 1, out, n);
}

/* A row of the broadcast walk: input 1 one value (step 0) as input 2 of the product, which commutes. */
static void mul_row(const void* constants, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                    void* output, ptrdiff_t done, int32_t n) {
  const mul_context* context = (const mul_context*)constants;
  const mul_constants* k = &context->k;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  mul_constants swapped;
  if (step[0] == 1 && (step[1] == 1 || step[1] == 0)) {
    if (step[1] == 1 && n >= 8 && context->packing.packs) {
      mul_contiguous(k, &context->packing, a, b, out, n);
    } else {
      mul_elements(k, a, b, step[1], out, n);
    }
  } else if (step[0] == 0 && step[1] == 1) {
    swapped = *k;
    swapped.offset1 = k->offset2, swapped.offset2 = k->offset1;
    mul_elements(&swapped, b, a, 0, out, n);
  } else if (step[0] == 0 && step[1] == 0) { /* both one value: n copies of one element */
    mul_tail(k, a, b, 0, out, 1);
    for (n -= 1; n > 0; --n) out[n] = out[0];
  } else {
    int32_t c;
    for (c = 0; c < n; ++c) mul_tail(k, a + c * step[0], b + c * step[1], 0, out + c, 1);
  }
}

/* A per-channel operand (walk [rows, channels], strides {0, 1} against {channels, 1}) of at most MUL_REPEAT / 2
 * channels: its row repeated into a buffer (a whole number of eights of elements where it can), which the packed
 * run takes as a contiguous operand over as many rows at a time, rather than row by row. 0 (nothing written) where
 * the sums do not pack or the vector is longer. The buffer is filled before any output is written, and the full
 * operand is read in order, so the output may be it (in place). Not inlined: the buffer stays out of the frame of
 * the layers that do not take it. */
#define MUL_REPEAT 128
static __attribute__((noinline)) int mul_channels(const mul_context* context, int vector_input, const int8_t* full,
                                                  const int8_t* vector, int8_t* out, int32_t rows, int32_t channels) {
  int8_t repeated[MUL_REPEAT];
  mul_constants k = context->k;
  const int32_t total = rows * channels, power = channels & -channels; /* the greatest power of 2 dividing it */
  const int32_t unit = power >= 8 ? 1 : 8 / power;                         /* rows of a whole number of eights */
  int32_t span, i;
  if (!context->packing.packs || channels < 1 || channels > MUL_REPEAT / 2 || rows < 2) return 0;
  span = MUL_REPEAT / channels;
  span = (span >= unit ? span - span % unit : span) * channels;
  span = span < total ? span : total;
  memcpy(repeated, vector, (size_t)channels);
  for (i = channels; i < span; i *= 2) memcpy(repeated + i, repeated, (size_t)(span - i < i ? span - i : i));
  if (vector_input == 0) k.offset1 = context->k.offset2, k.offset2 = context->k.offset1; /* the product commutes */
  for (i = 0; i < total; i += span) {
    mul_contiguous(&k, &context->packing, full + i, repeated, out + i, total - i < span ? total - i : span);
  }
  return 1;
}

void microaot_mul_s8(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2,
                     int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  mul_constants k;
  mul_context context;
  int vector = 0;
  if (!fits_fast_path(params)) {
    microaot_mul_s8_general(params, input1, input2, output);
    return;
  }
  k.offset1 = microaot_dsp_pack16(params->input1_offset, params->input1_offset);
  k.offset2 = microaot_dsp_pack16(params->input2_offset, params->input2_offset);
  k.multiplier = params->output_multiplier;
  k.exponent = -params->output_shift;
  /* (v + offset * 2^e) >> e = (v >> e) + offset: the output offset joins the rounding term */
  k.rounding = (int32_t)(((int64_t)1 << (k.exponent - 1)) + (int64_t)params->output_offset * ((int64_t)1 << k.exponent));
  k.lo = params->activation_min;
  k.hi = params->activation_max;
  k.lo4 = 0x01010101u * (uint8_t)k.lo;
  k.hi4 = 0x01010101u * (uint8_t)k.hi;
  context.k = k;
  context.packing = packing_of(&k);
  if (params->num_dims == 0) {
    mul_contiguous(&k, &context.packing, input1, input2, output, params->flat_size);
    return;
  }
  if (microaot_broadcast_fold_kind(params->num_dims, params->output_shape, params->input1_strides,
                                   params->input2_strides, &vector) == MICROAOT_FOLD_CHANNELS &&
      mul_channels(&context, vector, vector == 0 ? input2 : input1, vector == 0 ? input1 : input2, output,
                   params->output_shape[0], params->output_shape[1])) {
    return;
  }
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &context, inputs, output, mul_row);
}
