/* Start-up of a bare-metal Cortex-M4F: the vector table, the reset handler (FPU on, .data copied from
 * flash, .bss zeroed, then main) and fault handlers that say what happened. Symbols from mps2_an386.ld. */
#include <stdint.h>

#include "semihosting.h"

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[], __stack_top[];

int main(void);
void Reset_Handler(void);
void SysTick_Handler(void);

static void stop(const char *what) {
  console_write(what);
  board_exit(1);
}
static void nmi_handler(void) { stop("NMI\n"); }
static void hard_fault_handler(void) { stop("HardFault: bad memory access or instruction\n"); }
static void mem_manage_handler(void) { stop("MemManage fault\n"); }
static void bus_fault_handler(void) { stop("BusFault\n"); }
static void usage_fault_handler(void) { stop("UsageFault: undefined instruction or unaligned access\n"); }
static void unexpected_handler(void) { stop("unexpected exception\n"); }

/* A firmware that uses SysTick defines SysTick_Handler (the profiler's cycle counter does). */
__attribute__((weak)) void SysTick_Handler(void) { unexpected_handler(); }

/* The core loads the stack pointer from word 0 and jumps to word 1 at reset. Add your peripheral
 * interrupts (IRQ 0...) after the 15 system exceptions. */
typedef struct {
  uint32_t *initial_stack_pointer;
  void (*exceptions[15])(void);
} vector_table;

__attribute__((section(".vectors"), used)) static const vector_table vectors = {
    __stack_top,
    {Reset_Handler, nmi_handler, hard_fault_handler, mem_manage_handler, bus_fault_handler, usage_fault_handler,
     0, 0, 0, 0, unexpected_handler /* SVCall */, unexpected_handler /* DebugMonitor */, 0,
     unexpected_handler /* PendSV */, SysTick_Handler}};

/* Runs after the FPU is on: a separate, non-inlined function, so that no floating-point instruction
 * the compiler might use for it can run before CPACR allows it. */
__attribute__((noinline, noreturn)) static void start_c(void) {
  uint32_t *dst = __data_start;
  const uint32_t *src = __data_load;
  while (dst < __data_end) *dst++ = *src++;
  for (dst = __bss_start; dst < __bss_end;) *dst++ = 0u;
  board_exit(main());
}

void Reset_Handler(void) {
  /* CPACR: full access to coprocessors 10 and 11, the FPU. Without it the first FP instruction faults. */
  *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  start_c();
}
