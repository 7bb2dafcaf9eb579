/* Three rows against every unit (microaot_packed_rows3), for the k x k packed CONV_2D
 * (templates/packed_conv_2d_kxk.h), in its translation unit: a model whose packed layers are all 1x1 or
 * FULLY_CONNECTED links none of it. The including source's weight form (MICROAOT_PACKED_WIDE_WEIGHTS or
 * MICROAOT_PACKED_RAW_WEIGHTS) is defined before the include. */
#include <stddef.h>

#include "microaot/internal/packed_step.h"
#include "microaot/internal/templates/packed_left_units.h"
#include "microaot/packed_matmul.h"

/* The unit pairs of three interleaved rows (per group: row 0's two words, row 1's, row 2's) from `weights` on, in
 * one of two modes. The step mode: the sums from the output step's table `from.step` on, outputs from `out` (two a
 * pair) up to `end.out_end`, the rows `row_bytes` apart. The sums mode (out NULL; a chunk of a longer window):
 * each pair's six sums from `from.sums` on (up to `end.sums_end`), in the order row 0's two units, row 1's, row
 * 2's, added to and stored back. The pairs' loop reads the job and advances its out and from. (The modes share
 * words: the job stays as small as the step mode's alone in its callers' frames.) */
typedef struct {
  const int32_t* weights;
  int8_t* out;
  size_t row_bytes;
  const uint32_t* rows;
  int32_t pair_bytes; /* a unit pair's weight bytes */
  union {
    const int32_t* step;
    int32_t* sums;
  } from;
  union {
    int8_t* out_end;
    int32_t* sums_end;
  } end;
} microaot_packed3_job;

#if MICROAOT_PACKED_ASM
/* One naked function: each weight word loaded (and widened) once for three rows takes the six sums, four weight
 * words and two row words in registers with both pointers, all 14, which an asm statement does not get. */
#include "microaot/internal/templates/packed_dot3.h"
#else
/* One pair's groups against the three rows added to its six sums `acc` (the sums mode's order). Returns the next
 * pair's weights. */
static const int32_t* microaot_packed_pair3(const int32_t* pair, const uint32_t* rows, int32_t groups, int32_t* acc) {
  int32_t r, g;
  for (g = 0; g < groups; ++g, pair += MICROAOT_PACKED_PAIR_WORDS) {
    for (r = 0; r < 6; ++r) acc[r] = microaot_packed_mac(acc[r], rows + 6 * g + 2 * (r / 2), pair, r % 2);
  }
  return pair;
}

static void microaot_packed_pairs3(microaot_packed3_job* job) {
  const int32_t* pair = job->weights;
  const int32_t groups = job->pair_bytes / (4 * MICROAOT_PACKED_PAIR_WORDS);
  int32_t r;
  if (job->out == NULL) {
    for (; job->from.sums != job->end.sums_end; job->from.sums += 6) {
      pair = microaot_packed_pair3(pair, job->rows, groups, job->from.sums);
    }
    return;
  }
  for (; job->out != job->end.out_end; job->out += 2, job->from.step += MICROAOT_PACKED_STEP_WORDS) {
    const int32_t* const step = job->from.step;
    int32_t acc[6];
    for (r = 0; r < 6; ++r) acc[r] = step[r % 2];
    pair = microaot_packed_pair3(pair, job->rows, groups, acc);
    for (r = 0; r < 6; ++r) {
      const int32_t value = microaot_packed_requantized(acc[r], step[2 + r % 2], step[4 + r % 2], step[6 + r % 2]);
      job->out[(size_t)(r / 2) * job->row_bytes + (size_t)(r % 2)] = microaot_packed_saturated(value);
    }
  }
}
#endif

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
    for (r = 0; r < 3; ++r) {
      microaot_packed_clamp_row(out + (size_t)r * row_bytes, units, o->activation_min, o->activation_max);
    }
  }
}
