/* A channel group's constants of the DSP int8 DEPTHWISE_CONV_2D (dw_group in microaot/internal/dsp_depthwise.h)
 * as words, computed in plain C: the compiler writes them into weights.c for depthwise_conv_2d_s8_w16 (the
 * groups' constants at compile time, --optimize speed), whose portable build reads them back. The DSP code
 * computes the same words at run time (microaot_dsp_depthwise_group_at) for the other kernels; the kernel tests
 * check both agree. Layout of a group's MICROAOT_DW_GROUP_WORDS words, channels c to c + 3:
 *   [0, 4)   each channel's bias doubled (0 without a bias)
 *   [4, 22)  for tap k = 0..8 two words: the 16-bit lanes of weights (c, c + 2) then (c + 1, c + 3), doubled
 *   [22, 34) per channel its multiplier, rounding term (2 * output offset + 1) * 2^(e - 1), exponent e = -shift
 *   34, 35   the clamp's bounds in each byte; 36: 1 when the clamp is [-128, 127]
 * Valid for a layer within microaot_fit_depthwise_widened and microaot_fit_depthwise_dsp_requantization
 * (microaot/fit/depthwise_conv_2d.h). */
#ifndef MICROAOT_DEPTHWISE_GROUP_WORDS_H
#define MICROAOT_DEPTHWISE_GROUP_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/fit/depthwise_conv_2d.h"
#include "microaot/status.h"

#define MICROAOT_DW_GROUP_BIAS 0
#define MICROAOT_DW_GROUP_WEIGHTS 4
#define MICROAOT_DW_GROUP_STEP 22
#define MICROAOT_DW_GROUP_CLAMP 34
#define MICROAOT_DW_GROUP_FULL_RANGE 36
#define MICROAOT_DW_GROUP_WORDS 37

/* Two int16 values as the 16-bit lanes of a word, the first in the low half. */
static inline int32_t microaot_dw_lanes(int32_t low, int32_t high) {
  return (int32_t)(((uint32_t)(uint16_t)(int16_t)high << 16) | (uint32_t)(uint16_t)(int16_t)low);
}

/* The clamp's bound in each byte of a word. */
static inline int32_t microaot_dw_bytes4(int32_t v) { return (int32_t)(0x01010101u * (uint32_t)(uint8_t)(int8_t)v); }

/* Group c's words (channels c to c + 3) of a 3x3 layer with per-channel constants `ch`: `filter` the layer's
 * (OHWI: a tap's channels side by side, output_depth apart). */
static inline void microaot_dw_group_words(const microaot_depthwise_conv_2d_params_q* p, const int8_t* filter,
                                           const microaot_depthwise_channels* ch, int32_t c,
                                           int32_t words[MICROAOT_DW_GROUP_WORDS]) {
  const size_t depth = (size_t)p->output_depth;
  int32_t k;
  for (k = 0; k < 4; ++k) {
    const int32_t e = -ch->shift[c + k];
    int32_t* step = words + MICROAOT_DW_GROUP_STEP + 3 * k;
    words[MICROAOT_DW_GROUP_BIAS + k] = ch->bias != NULL ? 2 * ch->bias[c + k] : 0;
    step[0] = ch->multiplier[c + k];
    step[1] = (2 * p->output_offset + 1) * ((int32_t)1 << (e - 1)); /* |.| < 2^30 within the bounds */
    step[2] = e;
  }
  for (k = 0; k < 9; ++k) {
    const int8_t* w = filter + (size_t)k * depth + (size_t)c;
    words[MICROAOT_DW_GROUP_WEIGHTS + 2 * k] = microaot_dw_lanes(2 * w[0], 2 * w[2]);
    words[MICROAOT_DW_GROUP_WEIGHTS + 2 * k + 1] = microaot_dw_lanes(2 * w[1], 2 * w[3]);
  }
  words[MICROAOT_DW_GROUP_CLAMP] = microaot_dw_bytes4(p->activation_min);
  words[MICROAOT_DW_GROUP_CLAMP + 1] = microaot_dw_bytes4(p->activation_max);
  words[MICROAOT_DW_GROUP_FULL_RANGE] = p->activation_min == -128 && p->activation_max == 127;
}

/* The compact form of a group's words (depthwise_conv_2d_s8_w8, levels other than --optimize speed): the same
 * constants in no more flash than the int8 filter, bias and requantization they replace (84 bytes a group of 4
 * channels), which the DSP kernel widens into a dw_group per group and call (the weights, the rounding terms)
 * with no run-time bounds test. Layout of a group's MICROAOT_DW_COMPACT_WORDS words, channels c to c + 3:
 *   [0, 4)    each channel's bias doubled
 *   [4, 12)   per channel its multiplier and exponent e = -shift (the rounding term follows from e and the
 *             output offset: (2 * output offset + 1) * 2^(e - 1))
 *   [12, 21)  for tap k = 0..8 one word: the four channels' int8 weights, channel c in the low byte
 * Valid under the same bounds as microaot_dw_group_words. */
#define MICROAOT_DW_COMPACT_BIAS 0
#define MICROAOT_DW_COMPACT_STEP 4
#define MICROAOT_DW_COMPACT_TAPS 12
#define MICROAOT_DW_COMPACT_WORDS 21

/* Group c's compact words, from the same arguments as microaot_dw_group_words. */
static inline void microaot_dw_compact_words(const microaot_depthwise_conv_2d_params_q* p, const int8_t* filter,
                                             const microaot_depthwise_channels* ch, int32_t c,
                                             int32_t words[MICROAOT_DW_COMPACT_WORDS]) {
  const size_t depth = (size_t)p->output_depth;
  int32_t k;
  for (k = 0; k < 4; ++k) {
    words[MICROAOT_DW_COMPACT_BIAS + k] = ch->bias != NULL ? 2 * ch->bias[c + k] : 0;
    words[MICROAOT_DW_COMPACT_STEP + 2 * k] = ch->multiplier[c + k];
    words[MICROAOT_DW_COMPACT_STEP + 2 * k + 1] = -ch->shift[c + k];
  }
  for (k = 0; k < 9; ++k) {
    const int8_t* w = filter + (size_t)k * depth + (size_t)c;
    words[MICROAOT_DW_COMPACT_TAPS + k] =
        (int32_t)((uint32_t)(uint8_t)w[0] | (uint32_t)(uint8_t)w[1] << 8 | (uint32_t)(uint8_t)w[2] << 16 |
                  (uint32_t)(uint8_t)w[3] << 24);
  }
}

/* The portable read-back of both forms (portable/depthwise_conv_2d_s8_w16.c): every layer of
 * microaot_fit_depthwise_widened_palette from `words` (`compact`: microaot_dw_compact_words's, else
 * microaot_dw_group_words's), through `scratch` row by row when not NULL (the overlap variants). */
microaot_status microaot_depthwise_conv_2d_s8_words_portable(const microaot_depthwise_conv_2d_params_q* p,
                                                             const int8_t* input, const int32_t* words,
                                                             int8_t* output, int8_t* scratch, int compact);

#endif /* MICROAOT_DEPTHWISE_GROUP_WORDS_H */
