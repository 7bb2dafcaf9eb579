/* The packed kernels' row driver (microaot/kernels/packed.h): the output step's table and the loops over unit
 * pairs, declared here and defined once per weight form by microaot/internal/templates/packed_rows.h, over the
 * dot-product primitives of microaot/internal/packed_dot.h (which has the weight layout). */
#ifndef MICROAOT_PACKED_MATMUL_H
#define MICROAOT_PACKED_MATMUL_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/kernels/packed.h"
#include "microaot/internal/packed_dot.h"

/* The row machinery (the output steps, the loops over unit pairs) is out of line, one copy per weight
 * form for every packed kernel of a model: microaot/internal/templates/packed_rows.h, instantiated by
 * kernels/dsp/packed_rows.c (int8 weight words), packed_rows_w16.c (int16) and packed_rows_raw.c (int8, raw form). A kernel source names the
 * one it calls in a links comment (docs/adding-an-operator.md), which brings it into the generated folder. */
#if MICROAOT_PACKED_WIDE_WEIGHTS
#define MICROAOT_PACKED_FORM(name) name##_w16
#elif MICROAOT_PACKED_RAW_WEIGHTS
#define MICROAOT_PACKED_FORM(name) name##_raw
#else
#define MICROAOT_PACKED_FORM(name) name
#endif

/* The words per unit pair of the specialised output step's table (microaot/internal/templates/packed_rows.h). */
#define MICROAOT_PACKED_STEP_WORDS 8

/* Every unit of one row (out1 NULL; `rows` holds it alone) or of two interleaved rows: out_i[u] = the
 * output step of bias[u] + row i . unit u (the sums start from the bias). Whole unit pairs (two rows) or
 * quads (one row) run in the assembly loops, the units left in C. `output_step`: the output step's table
 * (MICROAOT_PACKED_STEP_WORDS per unit pair, not NULL: the kernels refuse a call without it; its words hold the
 * folded bias, so o->bias and the params' multipliers and shifts are not read, only o's activation range);
 * out1 must be out0 + units (as the kernels lay their rows out). */
void MICROAOT_PACKED_FORM(microaot_packed_rows)(const uint32_t* rows, const int32_t* weights, int32_t groups,
                                                int32_t units, const microaot_dsp_output_stage* o,
                                                const int32_t* output_step, int8_t* out0, int8_t* out1);

/* The chunked reduction of rows longer than MICROAOT_PACKED_CHUNK, driven by the caller, which finds each chunk's
 * rows (in place, or gathered from a window) and widens them into `rows` as microaot_packed_rows reads them: sums
 * start from the table's folded bias, each chunk's products are added (returns the next chunk's weights), and the
 * output step writes `row_count` rows (1 or 2) from out0. `sums`: MICROAOT_PACKED_SUMS_BYTES. The k x k kernel also
 * starts and finishes three rows (row_count 3, MICROAOT_PACKED_SUMS3_BYTES), whose chunks it adds itself
 * (templates/packed_conv_2d_kxk.h). Direct calls, no function pointer, so that the stack bound of a model stays
 * known. Out of line: one copy for every packed kernel. */
void MICROAOT_PACKED_FORM(microaot_packed_sums_start)(const int32_t* requant, int32_t units, int32_t row_count,
                                                      int32_t* sums);
const int32_t* MICROAOT_PACKED_FORM(microaot_packed_sums_chunk)(const uint32_t* rows, const int32_t* weights,
                                                                int32_t groups, int32_t units, int32_t row_count,
                                                                int32_t* sums);
void MICROAOT_PACKED_FORM(microaot_packed_sums_finish)(const int32_t* sums, int32_t units, int32_t row_count,
                                                       const microaot_dsp_output_stage* o, const int32_t* requant,
                                                       int8_t* out0);

/* Rows r0 and r1 (r1 NULL: r0 alone) of n > MICROAOT_PACKED_CHUNK elements, in place, reduced in chunks. */
static inline void microaot_packed_row_pair_chunked(const int8_t* r0, const int8_t* r1, int32_t n,
                                                    const int32_t* weights, int32_t units,
                                                    const microaot_dsp_output_stage* o, const int32_t* requant,
                                                    uint32_t* rows, int32_t* sums, int8_t* out0) {
  const int32_t chunk = MICROAOT_PACKED_CHUNK_LENGTH(n), row_count = r1 != NULL ? 2 : 1;
  int32_t begin, length;
  MICROAOT_PACKED_FORM(microaot_packed_sums_start)(requant, units, row_count, sums);
  for (begin = 0; begin < n; begin += length) {
    length = n - begin < chunk ? n - begin : chunk;
    microaot_packed_widen(r0 + begin, length, rows, 2 * row_count);
    if (r1 != NULL) microaot_packed_widen(r1 + begin, length, rows + 2, 4);
    weights = MICROAOT_PACKED_FORM(microaot_packed_sums_chunk)(rows, weights, microaot_packed_groups(length), units,
                                                               row_count, sums);
  }
  MICROAOT_PACKED_FORM(microaot_packed_sums_finish)(sums, units, row_count, o, requant, out0);
}

/* Rows r0 and r1 (r1 NULL: r0 alone) widened into `rows` (4 * groups words) and multiplied by every unit
 * through the output step's table `requant` (microaot_packed_rows). Inline, so that a row pair costs one call
 * (two cost VWW 0.36% more instructions). */
static inline void microaot_packed_row_pair(const int8_t* r0, const int8_t* r1, int32_t n, const int32_t* weights,
                                            int32_t units, const microaot_dsp_output_stage* o,
                                            const int32_t* requant, uint32_t* rows, int8_t* out0, int8_t* out1) {
  const int32_t groups = microaot_packed_groups(n);
  if (n > MICROAOT_PACKED_CHUNK) { /* the sums after the rows' chunk in the scratch */
    microaot_packed_row_pair_chunked(r0, r1, n, weights, units, o, requant, rows,
                                     (int32_t*)(void*)(rows + MICROAOT_PACKED_CHUNK_LENGTH(n)), out0);
    return;
  }
  microaot_packed_widen(r0, n, rows, r1 != NULL ? 4 : 2);
  if (r1 != NULL) microaot_packed_widen(r1, n, rows + 2, 4);
  MICROAOT_PACKED_FORM(microaot_packed_rows)(rows, weights, groups, units, o, requant, out0, r1 != NULL ? out1 : NULL);
}

#endif /* MICROAOT_PACKED_MATMUL_H */
