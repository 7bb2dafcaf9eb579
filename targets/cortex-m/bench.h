/* Measuring one call on the emulated board: instructions executed (QEMU -icount shift=0 advances virtual
 * time by exactly 1 ns per instruction, and the board's timer runs on virtual time) and peak stack
 * (the free stack is painted before the call and scanned after it). */
#ifndef MICROAOT_BENCH_H
#define MICROAOT_BENCH_H

#include <stdint.h>

typedef int (*bench_fn)(void *arg);

typedef struct {
  int64_t instructions; /* of the call, plus a constant harness overhead: subtract an empty call's */
  int32_t stack_bytes;  /* deepest stack use below the caller's stack pointer; -1 = overflowed */
  int status;           /* what fn returned */
} bench_sample;

/* Starts the board's timer; call once before bench_measure. */
void bench_clock_start(void);
void bench_measure(bench_fn fn, void *arg, bench_sample *sample);

/* Instructions between two points of a program (the per-operator hooks): begin and end each time their
 * point with a probe of the timer (bench.c). The result includes a constant: subtract an empty begin/end
 * pair's. The timer is not restarted, so a span may lie inside a bench_measure call. */
#define BENCH_PROBE_MAX_READS 128
typedef struct {
  uint32_t values[BENCH_PROBE_MAX_READS]; /* the probe's reads of the timer */
  uint32_t after;                         /* one more read after the last */
  uint32_t wraps;                         /* the timer's wraps counted by then */
} bench_span;
void bench_span_begin(bench_span *span);
int64_t bench_span_end(const bench_span *span);

#endif /* MICROAOT_BENCH_H */
