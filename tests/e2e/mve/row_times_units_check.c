/* Runs on the emulated Cortex-M55 (tests/e2e/mve_qemu_test.cpp): microaot_mve_row_times_units (the Helium
 * FULLY_CONNECTED rows and a CONV_2D of one output pixel, microaot/internal/mve_dot.h) against the portable
 * arithmetic, over unit counts on both sides of its chunk of MICROAOT_MVE_UNITS_CHUNK sums (63 to 130: a unit
 * past the first chunk takes its own multiplier and shift, not those of the chunk's first units), depths with
 * row tails, a multiplier and a shift per unit, bias or none. Exits 0 when every output matches, else prints the
 * first difference and exits 1. */
#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/internal/mve_dot.h"
#include "semihost.h"

#if !MICROAOT_MVE
#error "build for a Helium target (-mcpu=cortex-m55)"
#endif

#define UNITS_MAX 130
#define DEPTH_MAX 40

static uint32_t state = 2024u;
static uint32_t next(void) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

static int8_t weights[UNITS_MAX * DEPTH_MAX];

/* Unit u's output as the portable kernels compute it: the int32 sum (mod 2^32), requantized, offset, clamped. */
static int8_t portable(const int8_t* row, int32_t depth, int32_t u, const int32_t* bias, int32_t input_offset,
                       const microaot_mve_output_stage* o) {
  uint32_t acc = bias != 0 ? (uint32_t)bias[u] : 0u;
  int32_t i, v;
  for (i = 0; i < depth; ++i) acc += (uint32_t)((row[i] + input_offset) * weights[u * depth + i]);
  v = microaot_multiply_by_quantized_multiplier((int32_t)acc, o->multiplier[u], (int)o->shift[u]) + o->output_offset;
  v = v < o->activation_min ? o->activation_min : v;
  return (int8_t)(v > o->activation_max ? o->activation_max : v);
}

int main(void) {
  static const int32_t kUnits[] = {63, 64, 65, 70, 127, 130};
  int32_t multiplier[UNITS_MAX], shift[UNITS_MAX], bias[UNITS_MAX];
  int8_t row[DEPTH_MAX], out[UNITS_MAX + 1];
  int32_t round, u, i;
  for (round = 0; round < 120; ++round) {
    const int32_t units = kUnits[round % 6], depth = 1 + (int32_t)(next() % DEPTH_MAX);
    const int32_t input_offset = (int32_t)(next() % 256) - 128;
    const int with_bias = next() % 4 != 0;
    microaot_mve_output_stage o;
    for (i = 0; i < depth; ++i) row[i] = (int8_t)(next() % 256);
    for (i = 0; i < units * depth; ++i) weights[i] = (int8_t)((int32_t)(next() % 255) - 127);
    for (u = 0; u < units; ++u) {
      /* Scales that keep most outputs inside int8 (depth x 2^14 products, shifts of 2^-8 to 2^-12), each unit
       * its own; every other round a left shift somewhere, the output step's general form. */
      multiplier[u] = (int32_t)((1u << 30) + (next() << 6));
      shift[u] = -8 - (int32_t)(next() % 5);
      bias[u] = (int32_t)(next() % 8192) - 4096;
    }
    if (round % 2 == 1) shift[next() % (uint32_t)units] = 1;
    o.multiplier = multiplier;
    o.shift = shift;
    o.output_offset = (int32_t)(next() % 64) - 32;
    o.activation_min = -128;
    o.activation_max = 127;
    o.right_only = microaot_mve_right_only(shift, units);
    out[units] = 0x5a;
    microaot_mve_row_times_units(row, weights, depth, units, with_bias ? bias : 0, input_offset, &o, out);
    if (out[units] != 0x5a) {
      semihost_print("row times units wrote past its units\n");
      return 1;
    }
    for (u = 0; u < units; ++u) {
      if (out[u] != portable(row, depth, u, with_bias ? bias : 0, input_offset, &o)) {
        semihost_print("row times units differs from the portable arithmetic\n");
        return 1;
      }
    }
  }
  semihost_print("row times units: 120 rounds identical\n");
  return 0;
}
