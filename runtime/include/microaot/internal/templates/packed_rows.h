/* The packed kernels' row machinery (declared in microaot/packed_matmul.h): the output step and the loops over
 * unit pairs, one out-of-line copy per weight form that every packed kernel of the form calls. The including
 * source (kernels/dsp/packed_rows.c, packed_rows_w16.c, packed_rows_raw.c) defines MICROAOT_PACKED_WIDE_WEIGHTS or
 * MICROAOT_PACKED_RAW_WEIGHTS. */
#include <stddef.h>

#include "microaot/internal/packed_dot.h"
#include "microaot/internal/packed_step.h"
#include "microaot/internal/templates/packed_left_units.h"
#include "microaot/packed_matmul.h"

/* One unit pair against two interleaved rows, sums from the table's bias, outputs out[0..1] and
 * out[units..units + 1] (the second row). Returns the next pair's weights. */
static inline const int32_t* microaot_packed_pair_fast(const int32_t* weights, const uint32_t* rows, int32_t groups,
                                                       const int32_t* output_step, size_t units, int8_t* out) {
  int32_t acc[4];
  acc[0] = acc[2] = output_step[0];
  acc[1] = acc[3] = output_step[1];
  weights = microaot_packed_dot_2x2(weights, rows, groups, acc);
  {
    /* Read before the int8 stores, which may alias them as far as the compiler knows. */
    const int32_t m0 = output_step[2], m1 = output_step[3], r0 = output_step[4], r1 = output_step[5];
    const int32_t e0 = output_step[6], e1 = output_step[7];
    out[0] = microaot_packed_saturated(microaot_packed_requantized(acc[0], m0, r0, e0));
    out[units] = microaot_packed_saturated(microaot_packed_requantized(acc[2], m0, r0, e0));
    out[1] = microaot_packed_saturated(microaot_packed_requantized(acc[1], m1, r1, e1));
    out[units + 1] = microaot_packed_saturated(microaot_packed_requantized(acc[3], m1, r1, e1));
  }
  return weights;
}

/* Two unit pairs (four units) against one row: out[0..3], the table's words of both pairs at `output_step`. */
static inline const int32_t* microaot_packed_quad_fast(const int32_t* weights, const uint32_t* row, int32_t groups,
                                                       const int32_t* output_step, int8_t* out) {
  const int32_t* const next = output_step + MICROAOT_PACKED_STEP_WORDS;
  int32_t acc[4];
  acc[0] = output_step[0], acc[1] = output_step[1], acc[2] = next[0], acc[3] = next[1];
  weights = microaot_packed_dot_1x4(weights, row, groups, acc);
  {
    /* Read before the int8 stores, which may alias them as far as the compiler knows. */
    const int32_t m0 = output_step[2], m1 = output_step[3], r0 = output_step[4], r1 = output_step[5];
    const int32_t e0 = output_step[6], e1 = output_step[7];
    const int32_t m2 = next[2], m3 = next[3], r2 = next[4], r3 = next[5], e2 = next[6], e3 = next[7];
    out[0] = microaot_packed_saturated(microaot_packed_requantized(acc[0], m0, r0, e0));
    out[1] = microaot_packed_saturated(microaot_packed_requantized(acc[1], m1, r1, e1));
    out[2] = microaot_packed_saturated(microaot_packed_requantized(acc[2], m2, r2, e2));
    out[3] = microaot_packed_saturated(microaot_packed_requantized(acc[3], m3, r3, e3));
  }
  return weights;
}

/* The units the assembly loops take through the table `output_step` (a loop whose flag is a constant per call site):
 * two rows a unit pair at a time, one row four units at a time. Returns how many. */
static inline int32_t microaot_packed_units_fast(const uint32_t* rows, const int32_t* weights, int32_t groups,
                                                 int32_t units, const int32_t* output_step, int two_rows, int8_t* out) {
  int32_t u = 0;
  int8_t* next;
  if (!two_rows) {
    for (; u + 3 < units; u += 4, output_step += 2 * MICROAOT_PACKED_STEP_WORDS) {
      weights = microaot_packed_quad_fast(weights, rows, groups, output_step, out + u);
    }
    return u;
  }
  for (next = out; next != out + (units & ~1); next += 2, output_step += MICROAOT_PACKED_STEP_WORDS) {
    weights = microaot_packed_pair_fast(weights, rows, groups, output_step, (size_t)units, next);
  }
  return units & ~1;
}

/* microaot/packed_matmul.h states the contract of this one. */
void MICROAOT_PACKED_FORM(microaot_packed_rows)(const uint32_t* rows, const int32_t* weights, int32_t groups,
                                                int32_t units, const microaot_dsp_output_stage* o,
                                                const int32_t* output_step, int8_t* out0, int8_t* out1) {
  const int32_t row_count = out1 != NULL ? 2 : 1;
  const int32_t done = out1 != NULL ? microaot_packed_units_fast(rows, weights, groups, units, output_step, 1, out0)
                                    : microaot_packed_units_fast(rows, weights, groups, units, output_step, 0, out0);
  if (done < units) {
    microaot_packed_left_units(weights + (size_t)(done / 2) * MICROAOT_PACKED_PAIR_WORDS * (size_t)groups, rows,
                               groups, output_step + (done / 2) * MICROAOT_PACKED_STEP_WORDS, row_count, units - done,
                               (size_t)units, out0 + done);
  }
  if (o->activation_min != -128 || o->activation_max != 127) {
    microaot_packed_clamp_row(out0, row_count * units, o->activation_min, o->activation_max);
  }
}

/* The chunked reduction (microaot_packed_sums_start, _chunk, _finish): `sums` holds each row's int32 sum per unit
 * between chunks, per unit pair each row's two in turn: microaot_packed_dot_2x2's accumulators for two rows, the
 * k x k kernel's three-row pairs' (templates/packed_pairs3.h), the units in order for one row. Where unit u's sum
 * of row r lies. */
static inline size_t microaot_packed_sum_index(int32_t u, int32_t r, int32_t row_count) {
  return (size_t)(2 * row_count * (u / 2) + 2 * r + u % 2);
}

/* The sums from the table's folded bias. */
void MICROAOT_PACKED_FORM(microaot_packed_sums_start)(const int32_t* output_step, int32_t units, int32_t row_count,
                                                      int32_t* sums) {
  int32_t u, r;
  for (u = 0; u < units; ++u) {
    for (r = 0; r < row_count; ++r) {
      sums[microaot_packed_sum_index(u, r, row_count)] = output_step[(u / 2) * MICROAOT_PACKED_STEP_WORDS + u % 2];
    }
  }
}

/* One chunk's products (rows widened as for microaot_packed_rows, `weights` the chunk's words) added to the sums;
 * returns the next chunk's words. */
const int32_t* MICROAOT_PACKED_FORM(microaot_packed_sums_chunk)(const uint32_t* rows, const int32_t* weights, int32_t groups,
                                                 int32_t units, int32_t row_count, int32_t* sums) {
  const size_t pair_words = (size_t)MICROAOT_PACKED_PAIR_WORDS * (size_t)groups;
  int32_t u = 0, r, g;
  if (row_count == 2) {
    for (; u + 1 < units; u += 2) weights = microaot_packed_dot_2x2(weights, rows, groups, sums + 2 * u);
  } else {
    for (; u + 3 < units; u += 4) weights = microaot_packed_dot_1x4(weights, rows, groups, sums + u);
  }
  /* The units left (as microaot_packed_left_units), in C. */
  for (r = u; r < units; ++r) {
    const int32_t* const pair = weights + (size_t)((r - u) / 2) * pair_words;
    int32_t row;
    for (row = 0; row < row_count; ++row) {
      int32_t* const sum = &sums[microaot_packed_sum_index(r, row, row_count)];
      for (g = 0; g < groups; ++g) {
        *sum = microaot_packed_mac(*sum, rows + 2 * (g * row_count + row), pair + MICROAOT_PACKED_PAIR_WORDS * g,
                                   (r - u) % 2);
      }
    }
  }
  return weights + (size_t)((units - u + 1) / 2) * pair_words;
}

/* The output step of every sum into out0 (and out0 + r * units for row r), clamped to o's activation range. */
void MICROAOT_PACKED_FORM(microaot_packed_sums_finish)(const int32_t* sums, int32_t units, int32_t row_count,
                                        const microaot_dsp_output_stage* o, const int32_t* output_step, int8_t* out0) {
  int32_t u, r;
  for (u = 0; u < units; ++u) {
    const int32_t* const words = output_step + (u / 2) * MICROAOT_PACKED_STEP_WORDS + u % 2;
    for (r = 0; r < row_count; ++r) {
      out0[(size_t)r * (size_t)units + (size_t)u] = microaot_packed_saturated(
          microaot_packed_requantized(sums[microaot_packed_sum_index(u, r, row_count)], words[2], words[4], words[6]));
    }
  }
  if (o->activation_min != -128 || o->activation_max != 127) {
    microaot_packed_clamp_row(out0, row_count * units, o->activation_min, o->activation_max);
  }
}
