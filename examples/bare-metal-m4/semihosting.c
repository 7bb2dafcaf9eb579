/* Arm semihosting: BKPT 0xAB with the operation in r0 and a pointer to its arguments in r1. */
#include "semihosting.h"

#include <stdint.h>

enum { SYS_WRITE0 = 0x04, SYS_EXIT = 0x18 };
enum { ADP_STOPPED_APPLICATION_EXIT = 0x20026, ADP_STOPPED_RUN_TIME_ERROR = 0x20023 };

static void semihosting_call(uint32_t operation, const void *argument) {
  register uint32_t r0 __asm__("r0") = operation;
  register const void *r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
}

/* To print on a UART instead, write each character of `text` to its transmit register here, e.g. on the
 * MPS2's CMSDK UART0: wait while (STATE at 0x40004004) bit 0 says the buffer is full, then store the
 * character at 0x40004000 (enable it once: CTRL at 0x40004008 = 1, BAUDDIV at 0x40004010). */
void console_write(const char *text) { semihosting_call(SYS_WRITE0, text); }

void board_exit(int status) {
  /* On 32-bit Arm, SYS_EXIT takes the reason code itself, not a pointer to it. */
  const uintptr_t reason = status == 0 ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUN_TIME_ERROR;
  semihosting_call(SYS_EXIT, (const void *)reason);
  for (;;) {
  }
}
