/* microaot_packed_pairs3: three interleaved rows against unit pairs, each weight word loaded once for the three,
 * in the step mode (the outputs) or the sums mode (int32 sums kept between calls). Static, in the translation
 * unit of each kernel that includes it: the k x k packed CONV_2D (through templates/packed_rows3.h) and the packed
 * LSTM (templates/lstm_s8_packed.h). The including source's weight form (MICROAOT_PACKED_WIDE_WEIGHTS or
 * MICROAOT_PACKED_RAW_WEIGHTS) is defined before the include. */
#include <stddef.h>

#include "microaot/internal/packed_dot.h"
#include "microaot/internal/packed_step.h"
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
