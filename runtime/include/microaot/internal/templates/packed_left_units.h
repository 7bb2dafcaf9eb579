/* The packed rows' units left after their assembly loops, in C: a static copy in each translation unit that
 * includes it (templates/packed_rows.h, templates/packed_rows3.h), so that each compiles it for its callers. */
#ifndef MICROAOT_PACKED_LEFT_UNITS_H
#define MICROAOT_PACKED_LEFT_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/packed_dot.h"
#include "microaot/internal/packed_step.h"
#include "microaot/packed_matmul.h"

/* The `count` units left after the assembly loops (the odd last unit after the pairs of two or three rows, up to
 * three after the quads of one row), from a pair's start, against each of `row_count` interleaved rows,
 * into out[r * row_bytes + j]: in C, since few layers leave any, and the loops' copies for them cost bytes
 * (a pair's zero unit completing an odd count is not computed). */
static void microaot_packed_left_units(const int32_t* weights, const uint32_t* rows, int32_t groups,
                                       const int32_t* output_step, int32_t row_count, int32_t count,
                                       size_t row_bytes, int8_t* out) {
  int32_t j, r, g;
  for (j = 0; j < count; ++j) {
    const int32_t* const pair = weights + (size_t)(j / 2) * MICROAOT_PACKED_PAIR_WORDS * (size_t)groups;
    const int32_t* const words = output_step + (j / 2) * MICROAOT_PACKED_STEP_WORDS + j % 2;
    for (r = 0; r < row_count; ++r) {
      int32_t sum = words[0];
      for (g = 0; g < groups; ++g) {
        sum = microaot_packed_mac(sum, rows + 2 * (g * row_count + r), pair + MICROAOT_PACKED_PAIR_WORDS * g, j % 2);
      }
      out[(size_t)r * row_bytes + (size_t)j] =
          microaot_packed_saturated(microaot_packed_requantized(sum, words[2], words[4], words[6]));
    }
  }
}

#endif /* MICROAOT_PACKED_LEFT_UNITS_H */
