/* Runs on the emulated Cortex-M55 (tests/e2e/mve_qemu_test.cpp): the Helium output step
 * (microaot_mve_output_row, microaot/internal/mve_dot.h) against the portable arithmetic
 * (microaot_multiply_by_quantized_multiplier, + offset, clamp) on the values random models seldom reach:
 * exact ties of the rounding right shift in both signs, sums near the int32 limits, left shifts that wrap,
 * every shift in [-31, 30], multipliers 0 and near 2^31, a tail of 1 to 3 channels, the short form of right
 * shifts alone (every other round) and the general one. Exits 0 when every value
 * matches, else prints the first difference and exits 1. */
#include <stdint.h>
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/internal/mve_dot.h"
#include "semihost.h"

#if !MICROAOT_MVE
#error "build for a Helium target (-mcpu=cortex-m55)"
#endif

#define CHANNELS 7 /* a whole vector and a tail of three */

static uint32_t state = 12345u;
static uint32_t next(void) {
  state = state * 1664525u + 1013904223u;
  return state;
}

static int8_t portable(int32_t acc, int32_t multiplier, int32_t shift, const microaot_mve_output_stage* o) {
  int32_t v = microaot_multiply_by_quantized_multiplier(acc, multiplier, (int)shift) + o->output_offset;
  v = v < o->activation_min ? o->activation_min : v;
  return (int8_t)(v > o->activation_max ? o->activation_max : v);
}

/* A sum for channel shift `shift`: random, an exact tie of the final rounding (either sign), or an extreme. */
static int32_t sum_for(uint32_t kind, int32_t shift) {
  const int32_t r = (int32_t)next();
  const int32_t right = shift < 0 ? -shift : 0;
  switch (kind % 6) {
    case 0: return r;
    case 1: return r >> (next() % 31);
    case 2: return INT32_MAX - (int32_t)(next() % 4);
    case 3: return INT32_MIN + (int32_t)(next() % 4);
    default: {
      /* multiplier 2^30 halves: a sum of (2k + 1) * 2^right gives a high product of (2k + 1) * 2^(right - 1). */
      const int32_t k = (int32_t)(next() % 2000) - 1000;
      return right >= 1 && right <= 20 ? (2 * k + 1) * (1 << right) : r;
    }
  }
}

int main(void) {
  int32_t multiplier[CHANNELS], shift[CHANNELS], acc[CHANNELS];
  int8_t out[CHANNELS + 1];
  int32_t round, c, channels;
  for (round = 0; round < 20000; ++round) {
    microaot_mve_output_stage o;
    const int32_t low = -128 + (int32_t)(next() % 3) * 60;
    o.multiplier = multiplier;
    o.shift = shift;
    o.output_offset = (int32_t)(next() % 256) - 128;
    o.activation_min = (next() % 4 == 0) ? low : -128;
    o.activation_max = (next() % 4 == 0) ? 100 : 127;
    channels = 1 + (int32_t)(next() % CHANNELS);
    for (c = 0; c < channels; ++c) {
      const uint32_t kind = next();
      shift[c] = (int32_t)(next() % 62) - 31;
      multiplier[c] = kind % 6 >= 4 ? (1 << 30) : kind % 7 == 0 ? 0 : (int32_t)((1u << 30) + (next() >> 2)) | 1;
      if (kind % 11 == 0) multiplier[c] = INT32_MAX;
      if ((kind % 6 >= 4 || round % 2 == 0) && shift[c] >= 0) shift[c] = -1 - shift[c]; /* short form */
      acc[c] = sum_for(kind, shift[c]);
    }
    o.right_only = microaot_mve_right_only(shift, channels);
    out[channels] = 0x5a;
    microaot_mve_output_row(&o, acc, channels, out);
    if (out[channels] != 0x5a) {
      semihost_print("output step wrote past its channels\n");
      return 1;
    }
    for (c = 0; c < channels; ++c) {
      if (out[c] != portable(acc[c], multiplier[c], shift[c], &o)) {
        semihost_print("output step differs from the portable arithmetic\n");
        return 1;
      }
    }
  }
  semihost_print("output step: 20000 rounds identical\n");
  return 0;
}
