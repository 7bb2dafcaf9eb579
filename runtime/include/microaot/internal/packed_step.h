/* The packed kernels' output step and clamp (microaot/packed_matmul.h), shared by every kernel that reads the
 * output step's table: the packed rows (templates/packed_rows.h) and the DSP palette kernel. */
#ifndef MICROAOT_INTERNAL_PACKED_STEP_H
#define MICROAOT_INTERNAL_PACKED_STEP_H

#include <stdint.h>
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/internal/dsp.h"

/* The packed kernels' output step (compiler/ops/packed_weights.cpp, packed_output_stage, proves it exact for the
 * constants it emits; a layer it does not prove keeps the unpacked kernel), as a table of MICROAOT_PACKED_STEP_WORDS
 * words per unit pair (the last pair completed with zeros): both units' folded bias, multiplier m >= 0, rounding R =
 * 2^(e-1) + output_offset * 2^e and right shift e in [1, 31]. With d = 2 * sum (no overflow: the compiler bounds the
 * sums below 2^30), SMMLAR(d, m, R) less one for a negative sum is R less one for a negative sum plus TFLM's rounding
 * doubling high multiply of the sum and m (the compiler's bound keeps it in int32), and >> e gives its rounding right
 * shift plus the output offset. The one less comes after the SMMLAR: one SUB of d's sign bit (LSR #31 as the operand's
 * shift) instead of an extraction and an add before it. */
static inline int32_t microaot_packed_requantized(int32_t acc, int32_t multiplier, int32_t rounding, int32_t shift) {
#if defined(MICROAOT_PACKED_RAW_WEIGHTS) && MICROAOT_PACKED_RAW_WEIGHTS
  /* the raw form's sums are 256 times the others (microaot/internal/packed_dot.h) */
  const uint32_t doubled = (uint32_t)(acc >> 7);
#else
  const uint32_t doubled = (uint32_t)acc << 1;
#endif
  return (microaot_dsp_smmlar((int32_t)doubled, multiplier, rounding) - (int32_t)(doubled >> 31)) >> shift;
}

/* The int8 output: one SSAT, the whole int8 range; a narrower activation range (ReLU6, or ReLU with another
 * zero point) is applied to the stored row afterwards (microaot_packed_clamp_row), out of the block loop. */
static inline int8_t microaot_packed_saturated(int32_t value) { return (int8_t)microaot_dsp_ssat8(value); }

/* out[0..n) clamped to [lo, hi] (a subrange of int8, so that clamping the saturated value is the clamp): four
 * bytes a word (SSUB8 and SEL against each bound), the last n % 4 one by one. Out of line: inlined, its registers
 * cost the callers' loops more than the call. */
#if defined(__GNUC__)
__attribute__((noinline, unused))
#endif
static void microaot_packed_clamp_row(int8_t* out, int32_t n, int32_t lo, int32_t hi) {
  const uint32_t lo4 = 0x01010101u * (uint8_t)lo, hi4 = 0x01010101u * (uint8_t)hi;
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    uint32_t word;
    memcpy(&word, out + i, 4);
    word = microaot_dsp_smin8(microaot_dsp_smax8(word, lo4), hi4);
    memcpy(out + i, &word, 4);
  }
  for (; i < n; ++i) out[i] = (int8_t)microaot_clamp_s32(out[i], lo, hi);
}

#endif /* MICROAOT_INTERNAL_PACKED_STEP_H */
