/* Instruction counting, exact to the instruction, with a down-counting timer on QEMU's virtual time
 * (-icount shift=0: one instruction, one nanosecond). The timer's value is a step function of time whose
 * pattern repeats every BEAT_NS instructions (BEAT_TICKS ticks: 40 instructions at 25 MHz, one tick; 125 at
 * 32 MHz, four ticks of 31.25), so floor(value / BEAT_TICKS) steps down exactly once every BEAT_NS
 * instructions. A point of the program is timed by a vernier probe: BEAT_NS reads of the timer, each
 * BEAT_NS + 1 instructions after the one before, so the i-th read lands i instructions later in the beat
 * than the first; how many reads come before the beat's step gives the first read's place in its beat to
 * the instruction. Two such instants subtract to the instructions between them plus a constant, which the
 * same measurement of an empty function of the same shape removes. Two backends, chosen by the driver:
 *   BENCH_CLOCK_CMSDK_BASE  CMSDK APB timer (MPS2 boards), 32-bit, no wrap within any realistic run;
 *   BENCH_CLOCK_SYSTICK     the core's SysTick (MPS3 AN547), 24-bit, wraps counted by its interrupt. */
#include "bench.h"

#include <stddef.h>

#ifndef BENCH_CLOCK_HZ
#error "BENCH_CLOCK_HZ (timer ticks per second of virtual time) must be defined"
#endif

#define NS_PER_SECOND 1000000000
#if NS_PER_SECOND % BENCH_CLOCK_HZ == 0
#define BEAT_TICKS 1
#elif 2 * NS_PER_SECOND % BENCH_CLOCK_HZ == 0
#define BEAT_TICKS 2
#elif 4 * NS_PER_SECOND % BENCH_CLOCK_HZ == 0
#define BEAT_TICKS 4
#elif 8 * NS_PER_SECOND % BENCH_CLOCK_HZ == 0
#define BEAT_TICKS 8
#else
#error "BENCH_CLOCK_HZ: no whole number of nanoseconds in 1, 2, 4 or 8 ticks"
#endif
#define BEAT_NS (NS_PER_SECOND / (BENCH_CLOCK_HZ / BEAT_TICKS))
#if BEAT_NS < 8 || BEAT_NS > BENCH_PROBE_MAX_READS
#error "the timer's beat is outside the probe's range"
#endif
/* The probe loop's body: ldr, str, mov, the delay loop (2 per round), PROBE_PAD nops, subs, bne. */
#define PROBE_PAD ((BEAT_NS + 1 - 5) % 2)
#define PROBE_DELAY ((BEAT_NS + 1 - 5 - PROBE_PAD) / 2)

#define STACK_PAINT 0xA5C3E1F7u

extern uint32_t __stack_limit[];

#if defined(BENCH_CLOCK_CMSDK_BASE)
#define CLOCK_CTRL (*(volatile uint32_t *)(BENCH_CLOCK_CMSDK_BASE + 0x0u))
#define CLOCK_VALUE (*(volatile uint32_t *)(BENCH_CLOCK_CMSDK_BASE + 0x4u))
#define CLOCK_RELOAD (*(volatile uint32_t *)(BENCH_CLOCK_CMSDK_BASE + 0x8u))
#define CLOCK_PERIOD_TICKS 0x100000000ll

void bench_clock_start(void) {
  CLOCK_CTRL = 0u;
  CLOCK_RELOAD = 0xFFFFFFFFu;
  CLOCK_VALUE = 0xFFFFFFFFu;
  CLOCK_CTRL = 1u; /* enable, no interrupt */
}
static void clock_restart(void) { CLOCK_VALUE = 0xFFFFFFFFu; }
/* A 32-bit counter at 25 MHz wraps after 171 s of virtual time: only a reload seen inside a probe counts. */
static uint32_t clock_wraps(void) { return 0u; }
#elif defined(BENCH_CLOCK_SYSTICK)
#define CLOCK_CTRL (*(volatile uint32_t *)0xE000E010u)
#define CLOCK_RELOAD (*(volatile uint32_t *)0xE000E014u)
#define CLOCK_VALUE (*(volatile uint32_t *)0xE000E018u)
#ifndef SYSTICK_PERIOD
#define SYSTICK_PERIOD 0x1000000 /* the 24-bit maximum; smaller values (-DSYSTICK_PERIOD=...) test wraps */
#endif
#if SYSTICK_PERIOD % BEAT_TICKS != 0
#error "SYSTICK_PERIOD must be a whole number of beats"
#endif
#define CLOCK_PERIOD_TICKS ((int64_t)SYSTICK_PERIOD)

static volatile uint32_t systick_wraps;
void SysTick_Handler(void);
void SysTick_Handler(void) { systick_wraps = systick_wraps + 1u; }

void bench_clock_start(void) {
  CLOCK_CTRL = 0u;
  CLOCK_RELOAD = SYSTICK_PERIOD - 1u;
  CLOCK_VALUE = 0u;
  CLOCK_CTRL = 7u; /* enable, interrupt on wrap, processor clock */
}
/* Restarting from the full period before each call keeps calls shorter than 2^24 ticks (524 M instructions)
 * free of wraps, of the interrupt's instructions and of QEMU's rounding of a period to whole nanoseconds. */
static void clock_restart(void) { CLOCK_VALUE = 0u; }
static uint32_t clock_wraps(void) { return systick_wraps; }
#else
#error "define BENCH_CLOCK_CMSDK_BASE or BENCH_CLOCK_SYSTICK"
#endif
#define CLOCK_PERIOD_NS (CLOCK_PERIOD_TICKS / BEAT_TICKS * BEAT_NS)

/* The vernier: BEAT_NS reads of the timer into values, BEAT_NS + 1 instructions apart, interrupts masked
 * (a wrap's handler inside would break the spacing); *after receives one more read after the last.
 * Assembly, so that the spacing does not depend on the compiler. */
__attribute__((always_inline)) static inline void probe(bench_span *span) {
  uint32_t *out = span->values;
  uint32_t n = BEAT_NS, v, d;
  __asm__ volatile(
      "  cpsid i\n"
      "1:\n"
      "  ldr %[v], [%[reg]]\n"
      "  str %[v], [%[out]], #4\n"
      "  mov %[d], %[delay]\n"
      "2:\n"
      "  subs %[d], %[d], #1\n"
      "  bne 2b\n"
      "  .rept %c[pad]\n"
      "  nop\n"
      "  .endr\n"
      "  subs %[n], %[n], #1\n"
      "  bne 1b\n"
      "  ldr %[v], [%[reg]]\n"
      "  cpsie i\n"
      : [n] "+r"(n), [out] "+r"(out), [v] "=&r"(v), [d] "=&r"(d)
      : [reg] "r"(&CLOCK_VALUE), [delay] "i"(PROBE_DELAY), [pad] "i"(PROBE_PAD)
      : "cc", "memory");
  span->after = v;
  span->wraps = clock_wraps();
}

static int64_t floor_beats(int64_t ticks) {
  return ticks >= 0 ? ticks / BEAT_TICKS : -((-ticks + BEAT_TICKS - 1) / BEAT_TICKS);
}

/* The instant of the probe's first read in instructions, counting down as time goes on: BEAT_NS per beat
 * of the timer's (unwrapped) value, plus the reads that saw the first read's beat (1 to BEAT_NS). */
static int64_t probe_instant(const bench_span *span) {
  const int64_t first_beat = floor_beats((int64_t)span->values[0]);
  uint32_t previous = span->values[0];
  int64_t reloads = 0, same_beat = 0;
  int i;
  for (i = 0; i < BEAT_NS; ++i) {
    if (span->values[i] > previous) ++reloads;
    previous = span->values[i];
    if (floor_beats((int64_t)previous - reloads * CLOCK_PERIOD_TICKS) + i == first_beat) ++same_beat;
  }
  if (span->after > previous) ++reloads;
  return first_beat * BEAT_NS + same_beat - ((int64_t)span->wraps - reloads) * CLOCK_PERIOD_NS;
}

static inline uint32_t *stack_pointer(void) {
  uint32_t *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

/* The end's probe is static: the hooks run inside a measured call, whose stack they would add to. */
static bench_span span_end_probe;
void bench_span_begin(bench_span *span) { probe(span); }
int64_t bench_span_end(const bench_span *span) {
  probe(&span_end_probe);
  return probe_instant(span) - probe_instant(&span_end_probe);
}

/* No calls between painting and scanning except fn itself: everything below `sp` that changed is fn's.
 * The probes write the spans, which lie in this frame (above `sp`). */
__attribute__((noinline)) void bench_measure(bench_fn fn, void *arg, bench_sample *sample) {
  uint32_t *const sp = stack_pointer();
  volatile uint32_t *word;
  bench_span begin, end;
  for (word = __stack_limit; word < sp; ++word) *word = STACK_PAINT;

  clock_restart();
  probe(&begin);
  sample->status = fn(arg);
  probe(&end);

  for (word = __stack_limit; word < sp && *word == STACK_PAINT; ++word) {
  }
  sample->stack_bytes = word == __stack_limit ? -1 : (int32_t)((uintptr_t)sp - (uintptr_t)word);
  sample->instructions = probe_instant(&begin) - probe_instant(&end);
}
