/* microaot_platform_cycle_count() on a Cortex-M3/M4/M7/M33: the DWT cycle counter where it counts (real
 * cores that have one), else SysTick on the processor clock, widened to 32 bits by its wrap interrupt
 * (QEMU, which does not emulate the DWT). Started on the first call. */
#include <stdint.h>

#include "microaot/platform.h"

#define REG(address) (*(volatile uint32_t *)(address))
#define DEMCR REG(0xE000EDFCu)      /* debug exception and monitor control: bit 24 TRCENA */
#define DWT_CTRL REG(0xE0001000u)   /* bit 0 CYCCNTENA; bit 25 NOCYCCNT: no cycle counter */
#define DWT_CYCCNT REG(0xE0001004u)
#define DWT_LAR REG(0xE0001FB0u)    /* lock access (Cortex-M7): write the key to unlock */
#define SYST_CSR REG(0xE000E010u)   /* bit 0 ENABLE, bit 1 TICKINT, bit 2 CLKSOURCE = processor clock */
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)

enum { COUNTER_NONE, COUNTER_DWT, COUNTER_SYSTICK };
static int counter = COUNTER_NONE;
static volatile uint32_t systick_wraps;

void SysTick_Handler(void);
void SysTick_Handler(void) { ++systick_wraps; }

static int dwt_counts(void) {
  uint32_t first;
  int spin;
  if ((DWT_CTRL & (1u << 25)) != 0u) return 0;
  DEMCR |= 1u << 24;
  DWT_LAR = 0xC5ACCE55u;
  DWT_CYCCNT = 0u;
  DWT_CTRL |= 1u;
  first = DWT_CYCCNT;
  for (spin = 0; spin < 100; ++spin) __asm__ volatile("nop");
  return DWT_CYCCNT != first;
}

static void start_systick(void) {
  SYST_RVR = 0x00FFFFFFu; /* the full 24 bits: one interrupt every 2^24 cycles */
  SYST_CVR = 0u;
  SYST_CSR = 7u;
  while (SYST_CVR == 0u) {
  } /* the first tick loads the reload value; before it, the counter would seem to be at its end */
}

/* 2^24 per wrap plus the down-counter's progress; read again when a wrap came in between. */
static uint32_t systick_count(void) {
  uint32_t wraps, value;
  do {
    wraps = systick_wraps;
    value = SYST_CVR;
  } while (wraps != systick_wraps);
  return (wraps << 24) + (0x00FFFFFFu - value);
}

uint32_t microaot_platform_cycle_count(void) {
  if (counter == COUNTER_NONE) {
    counter = dwt_counts() ? COUNTER_DWT : COUNTER_SYSTICK;
    if (counter == COUNTER_SYSTICK) start_systick();
    microaot_platform_log(counter == COUNTER_DWT
                              ? "cycle counter: DWT CYCCNT"
                              : "cycle counter: SysTick (the DWT cycle counter does not count here)");
  }
  return counter == COUNTER_DWT ? DWT_CYCCNT : systick_count();
}
