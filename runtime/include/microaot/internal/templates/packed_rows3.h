/* Three rows against every unit (microaot_packed_rows3), for the k x k packed CONV_2D
 * (templates/packed_conv_2d_kxk.h), in its translation unit: a model whose packed layers are all 1x1 or
 * FULLY_CONNECTED links none of it. The including source's weight form (MICROAOT_PACKED_WIDE_WEIGHTS or
 * MICROAOT_PACKED_RAW_WEIGHTS) is defined before the include. */
#include <stddef.h>

#include "microaot/internal/packed_step.h"
#include "microaot/internal/templates/packed_left_units.h"
#include "microaot/internal/templates/packed_pairs3.h"
#include "microaot/packed_matmul.h"

/* Every unit of three interleaved rows, as microaot_packed_rows: the rows' outputs at out, out + row_bytes and
 * out + 2 * row_bytes (row_bytes >= units: a block of a row's units stores in place). */
static void microaot_packed_rows3(const uint32_t* rows, const int32_t* weights, int32_t groups, int32_t units,
                                  const microaot_dsp_output_stage* o, const int32_t* output_step, int8_t* out,
                                  size_t row_bytes) {
  int32_t r;
  const int32_t pairs = units / 2;
  if (pairs > 0) {
    microaot_packed3_job job;
    job.weights = weights, job.rows = rows, job.pair_bytes = 4 * MICROAOT_PACKED_PAIR_WORDS * groups;
    job.from.step = output_step, job.out = out, job.row_bytes = row_bytes, job.end.out_end = out + 2 * pairs;
    microaot_packed_pairs3(&job);
  }
  if (units & 1) {
    const int32_t* const last = weights + (size_t)pairs * MICROAOT_PACKED_PAIR_WORDS * (size_t)groups;
    microaot_packed_left_units(last, rows, groups, output_step + pairs * MICROAOT_PACKED_STEP_WORDS, 3, 1, row_bytes,
                               out + 2 * pairs);
  }
  if (o->activation_min != -128 || o->activation_max != 127) {
    const int adjacent = row_bytes == (size_t)units; /* a row of output pixels: the three rows are one run */
    for (r = 0; r < (adjacent ? 1 : 3); ++r) {
      microaot_packed_clamp_row(out + (size_t)r * row_bytes, adjacent ? 3 * units : units, o->activation_min,
                                o->activation_max);
    }
  }
}
