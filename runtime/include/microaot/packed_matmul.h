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
 * kernels/dsp/packed_rows.c (int8 weight words) and packed_rows_w16.c (int16). A kernel source names the
 * one it calls in a links comment (docs/adding-an-operator.md), which brings it into the generated folder. */
#if MICROAOT_PACKED_WIDE_WEIGHTS
#define MICROAOT_PACKED_FORM(name) name##_w16
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

/* Row `row` (0 or 1 of a pair)'s elements [begin, begin + n) as int8, for the chunked reduction: a pointer into
 * the input, or into a buffer the source gathered them into (a window); `context` is the source's. */
typedef const int8_t* (*microaot_packed_row_source)(const void* context, int32_t row, int32_t begin, int32_t n);

/* `row_count` rows (1 or 2) of n elements from `source` against every unit as microaot_packed_rows, chunk by chunk:
 * each chunk of the rows widened into `rows` (4 * MICROAOT_PACKED_CHUNK_LENGTH(n) bytes), the sums between chunks in
 * `sums` (MICROAOT_PACKED_SUMS_BYTES). Out of line: one copy for every packed kernel of a model. */
void MICROAOT_PACKED_FORM(microaot_packed_rows_chunked)(microaot_packed_row_source source, const void* context,
                                                        int32_t row_count, int32_t n, const int32_t* weights,
                                                        int32_t units, const microaot_dsp_output_stage* o,
                                                        const int32_t* requant, uint32_t* rows, int32_t* sums,
                                                        int8_t* out0);

/* The source of rows in place: context holds the two rows' starts. */
static inline const int8_t* microaot_packed_row_in_place(const void* context, int32_t row, int32_t begin, int32_t n) {
  (void)n;
  return ((const int8_t* const*)context)[row] + begin;
}

/* Rows r0 and r1 (r1 NULL: r0 alone) widened into `rows` (4 * groups words) and multiplied by every unit
 * through the output step's table `requant` (microaot_packed_rows). Inline, so that a row pair costs one call
 * (two cost VWW 0.36% more instructions). */
static inline void microaot_packed_row_pair(const int8_t* r0, const int8_t* r1, int32_t n, const int32_t* weights,
                                            int32_t units, const microaot_dsp_output_stage* o,
                                            const int32_t* requant, uint32_t* rows, int8_t* out0, int8_t* out1) {
  const int32_t groups = microaot_packed_groups(n);
  if (n > MICROAOT_PACKED_CHUNK) { /* the sums after the rows' chunk in the scratch */
    const int8_t* const pair[2] = {r0, r1};
    MICROAOT_PACKED_FORM(microaot_packed_rows_chunked)(microaot_packed_row_in_place, pair, r1 != NULL ? 2 : 1, n,
                                                       weights, units, o, requant, rows,
                                                       (int32_t*)(rows + MICROAOT_PACKED_CHUNK_LENGTH(n)), out0);
    return;
  }
  microaot_packed_widen(r0, n, rows, r1 != NULL ? 4 : 2);
  if (r1 != NULL) microaot_packed_widen(r1, n, rows + 2, 4);
  MICROAOT_PACKED_FORM(microaot_packed_rows)(rows, weights, groups, units, o, requant, out0, r1 != NULL ? out1 : NULL);
}

#endif /* MICROAOT_PACKED_MATMUL_H */
