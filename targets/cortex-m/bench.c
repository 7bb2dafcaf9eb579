/* Instruction counting with a down-counting timer that ticks every 1e9 / BENCH_CLOCK_HZ instructions:
 * wait for a tick edge, make the call, then count a spin loop of known length up to the next edge.
 * ticks * period - spin * loop length = the call's instructions plus a constant, resolved to a few
 * instructions. Two backends, chosen by the driver per board:
 *   BENCH_CLOCK_CMSDK_BASE  CMSDK APB timer (MPS2 boards), 32-bit, no wrap within any realistic run;
 *   BENCH_CLOCK_SYSTICK     the core's SysTick (MPS3 AN547), 24-bit, wraps counted by its interrupt. */
#include "bench.h"

#include <stddef.h>

#ifndef BENCH_CLOCK_HZ
#error "BENCH_CLOCK_HZ (timer ticks per second of virtual time) must be defined"
#endif

#define SPIN_LOOP_INSTRUCTIONS 4
#define STACK_PAINT 0xA5C3E1F7u

extern uint32_t __stack_limit[];

#if defined(BENCH_CLOCK_CMSDK_BASE)
#define CLOCK_CTRL (*(volatile uint32_t *)(BENCH_CLOCK_CMSDK_BASE + 0x0u))
#define CLOCK_VALUE (*(volatile uint32_t *)(BENCH_CLOCK_CMSDK_BASE + 0x4u))
#define CLOCK_RELOAD (*(volatile uint32_t *)(BENCH_CLOCK_CMSDK_BASE + 0x8u))

void bench_clock_start(void) {
  CLOCK_CTRL = 0u;
  CLOCK_RELOAD = 0xFFFFFFFFu;
  CLOCK_VALUE = 0xFFFFFFFFu;
  CLOCK_CTRL = 1u; /* enable, no interrupt */
}
static void clock_restart(void) { CLOCK_VALUE = 0xFFFFFFFFu; }
static uint32_t clock_wraps(void) { return 0u; }
/* A 32-bit counter at 25 MHz wraps after 171 s of virtual time: modular difference suffices. */
static int64_t ticks_between(uint32_t start, uint32_t start_wraps, uint32_t end, uint32_t end_wraps) {
  (void)start_wraps;
  (void)end_wraps;
  return (int64_t)(uint32_t)(start - end);
}
#elif defined(BENCH_CLOCK_SYSTICK)
#define CLOCK_CTRL (*(volatile uint32_t *)0xE000E010u)
#define CLOCK_RELOAD (*(volatile uint32_t *)0xE000E014u)
#define CLOCK_VALUE (*(volatile uint32_t *)0xE000E018u)
#ifndef SYSTICK_PERIOD
#define SYSTICK_PERIOD 0x1000000 /* the 24-bit maximum; smaller values (-DSYSTICK_PERIOD=...) test wraps */
#endif

static volatile uint32_t systick_wraps;
void SysTick_Handler(void);
void SysTick_Handler(void) { systick_wraps = systick_wraps + 1u; }

void bench_clock_start(void) {
  CLOCK_CTRL = 0u;
  CLOCK_RELOAD = SYSTICK_PERIOD - 1u;
  CLOCK_VALUE = 0u;
  CLOCK_CTRL = 7u; /* enable, interrupt on wrap, processor clock */
}
/* Restarting from the full period before each call keeps calls shorter than 2^24 ticks free of wraps
 * (and of the interrupt's instructions and stack frame). */
static void clock_restart(void) { CLOCK_VALUE = 0u; }
static uint32_t clock_wraps(void) { return systick_wraps; }
static int64_t ticks_between(uint32_t start, uint32_t start_wraps, uint32_t end, uint32_t end_wraps) {
  return (int64_t)start - (int64_t)end + (int64_t)(end_wraps - start_wraps) * SYSTICK_PERIOD;
}
#else
#error "define BENCH_CLOCK_CMSDK_BASE or BENCH_CLOCK_SYSTICK"
#endif

/* Returns the timer value right after its next change. */
static inline uint32_t wait_for_edge(void) {
  const uint32_t before = CLOCK_VALUE;
  uint32_t now;
  do {
    now = CLOCK_VALUE;
  } while (now == before);
  return now;
}

/* Counts iterations of a fixed SPIN_LOOP_INSTRUCTIONS-long loop until the timer leaves `value`;
 * *after receives the new value. Assembly, so that the loop length does not depend on the compiler. */
static inline uint32_t spin_to_edge(uint32_t value, uint32_t *after) {
  uint32_t count = 0u;
  uint32_t now;
  __asm__ volatile(
      "1:\n"
      "  ldr %[now], [%[reg]]\n"
      "  adds %[count], %[count], #1\n"
      "  cmp %[now], %[value]\n"
      "  beq 1b\n"
      : [count] "+r"(count), [now] "=&r"(now)
      : [reg] "r"(&CLOCK_VALUE), [value] "r"(value)
      : "cc", "memory");
  *after = now;
  return count;
}

static inline uint32_t *stack_pointer(void) {
  uint32_t *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

/* Inlined into bench_measure: a call there would leave its own frame in the stack it measures. */
__attribute__((always_inline)) static inline void span_begin(bench_span *span) {
  span->start = wait_for_edge();
  span->start_wraps = clock_wraps();
}

/* The span's raw reading; instructions() converts it (a 64-bit division: a library call). */
typedef struct {
  int64_t ticks;
  uint32_t spins;
} span_reading;

__attribute__((always_inline)) static inline span_reading span_end(const bench_span *span) {
  span_reading r;
  uint32_t end, end_wraps;
  r.spins = spin_to_edge(CLOCK_VALUE, &end);
  end_wraps = clock_wraps();
  r.ticks = ticks_between(span->start, span->start_wraps, end, end_wraps);
  return r;
}

static int64_t instructions(span_reading r) {
  return (int64_t)((uint64_t)r.ticks * 1000000000ull / (uint64_t)(BENCH_CLOCK_HZ)) -
         (int64_t)r.spins * SPIN_LOOP_INSTRUCTIONS;
}

void bench_span_begin(bench_span *span) { span_begin(span); }
int64_t bench_span_end(const bench_span *span) { return instructions(span_end(span)); }

/* No calls between painting and scanning except fn itself: everything below `sp` that changed is fn's. */
__attribute__((noinline)) void bench_measure(bench_fn fn, void *arg, bench_sample *sample) {
  uint32_t *const sp = stack_pointer();
  volatile uint32_t *word;
  bench_span span;
  span_reading reading;
  for (word = __stack_limit; word < sp; ++word) *word = STACK_PAINT;

  clock_restart();
  span_begin(&span);
  sample->status = fn(arg);
  reading = span_end(&span);

  for (word = __stack_limit; word < sp && *word == STACK_PAINT; ++word) {
  }
  sample->stack_bytes = word == __stack_limit ? -1 : (int32_t)((uintptr_t)sp - (uintptr_t)word);
  sample->instructions = instructions(reading);
}
