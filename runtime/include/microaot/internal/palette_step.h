/* The DSP palette kernels' output step for a quad of four output channels (microaot/internal/palette_dot.h's
 * block): the sums start at the channels' folded bias and end through the packed kernels' output step
 * (microaot/internal/packed_step.h), read from its table of MICROAOT_PACKED_STEP_WORDS words per channel pair.
 * `step` is the quad's first pair; a last partial quad's `count` (1..3) channels only are read or written. */
#ifndef MICROAOT_INTERNAL_PALETTE_STEP_H
#define MICROAOT_INTERNAL_PALETTE_STEP_H

#include <stdint.h>

#include "microaot/internal/packed_step.h"
#include "microaot/packed_matmul.h"

/* Channel j's word `word` of the quad's table (0, 1: the folded biases; 2 + ...: the step's constants). */
#define MICROAOT_PALETTE_STEP_WORD(step, j, word) \
  ((step)[((j) / 2) * MICROAOT_PACKED_STEP_WORDS + (j) % 2 + (word)])

static inline void microaot_palette_quad_start(const int32_t* step, int32_t count, int32_t acc[4]) {
  int32_t j;
  for (j = 0; j < 4; ++j) acc[j] = j < count ? MICROAOT_PALETTE_STEP_WORD(step, j, 0) : 0;
}

static inline void microaot_palette_quad_store(const int32_t acc[4], const int32_t* step, int32_t count,
                                               int8_t* out) {
  int32_t j;
  for (j = 0; j < count; ++j) {
    out[j] = microaot_packed_saturated(microaot_packed_requantized(acc[j], MICROAOT_PALETTE_STEP_WORD(step, j, 2),
                                                                   MICROAOT_PALETTE_STEP_WORD(step, j, 4),
                                                                   MICROAOT_PALETTE_STEP_WORD(step, j, 6)));
  }
}

/* A whole quad's: unrolled, the sums in registers. */
static inline void microaot_palette_quad_start4(const int32_t* step, int32_t acc[4]) {
  const int32_t* const next = step + MICROAOT_PACKED_STEP_WORDS;
  acc[0] = step[0], acc[1] = step[1], acc[2] = next[0], acc[3] = next[1];
}

static inline void microaot_palette_quad_store4(const int32_t acc[4], const int32_t* step, int8_t* out) {
  const int32_t* const next = step + MICROAOT_PACKED_STEP_WORDS;
  out[0] = microaot_packed_saturated(microaot_packed_requantized(acc[0], step[2], step[4], step[6]));
  out[1] = microaot_packed_saturated(microaot_packed_requantized(acc[1], step[3], step[5], step[7]));
  out[2] = microaot_packed_saturated(microaot_packed_requantized(acc[2], next[2], next[4], next[6]));
  out[3] = microaot_packed_saturated(microaot_packed_requantized(acc[3], next[3], next[5], next[7]));
}

#endif /* MICROAOT_INTERNAL_PALETTE_STEP_H */
