/* Start-up code of the bench images: vector table, reset (FPU on, .data copied, .bss zeroed), main(), and
 * fault handlers that report through semihosting instead of hanging. The initial stack pointer is the
 * first word of the table, placed by the linker script (sections.ld). */
#include <stdint.h>

#include "semihost.h"

extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __data_load[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];

int main(void);
void Reset_Handler(void);
void microaot_startup(void) __attribute__((used, noreturn));
void SysTick_Handler(void) __attribute__((weak));

static void fail(const char *what) {
  semihost_print(what);
  semihost_exit(0);
}
static void nmi_handler(void) { fail("harness: NMI\n"); }
static void hard_fault_handler(void) { fail("harness: HardFault (bad memory access or instruction)\n"); }
static void mem_manage_handler(void) { fail("harness: MemManage fault\n"); }
static void bus_fault_handler(void) { fail("harness: BusFault\n"); }
static void usage_fault_handler(void) { fail("harness: UsageFault (undefined instruction, unaligned access?)\n"); }
static void unexpected_handler(void) { fail("harness: unexpected exception\n"); }
void SysTick_Handler(void) { unexpected_handler(); }

typedef void (*const vector)(void);
/* Exceptions 1..15; the linker script puts the initial stack pointer (exception 0) in front. */
__attribute__((section(".vectors"), used)) static vector vectors[15] = {
    Reset_Handler,      nmi_handler,        hard_fault_handler, mem_manage_handler, bus_fault_handler,
    usage_fault_handler, unexpected_handler, 0,                  0,                  0,
    unexpected_handler, unexpected_handler, 0,                  unexpected_handler, SysTick_Handler};

/* Naked so that no compiler-generated code (which may use FP or MVE registers) runs before CPACR grants
 * access to coprocessors 10 and 11. */
__attribute__((naked, noreturn)) void Reset_Handler(void) {
  __asm__ volatile(
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
      "ldr r0, =0xE000ED88\n"
      "ldr r1, [r0]\n"
      "orr r1, r1, #0x00F00000\n"
      "str r1, [r0]\n"
      "dsb\n"
      "isb\n"
#endif
      "b microaot_startup\n");
}

void microaot_startup(void) {
  volatile uint32_t *dst = __data_start;
  const volatile uint32_t *src = __data_load;
  while (dst < __data_end) *dst++ = *src++;
  for (dst = __bss_start; dst < __bss_end;) *dst++ = 0u;
  semihost_exit(main() == 0);
}
