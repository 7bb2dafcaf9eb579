/* Console output and exit through Arm semihosting: the debugger (or QEMU) does the work on the host.
 * Semihosting stops a board that has no debugger attached: there, write to a UART (README). */
#ifndef BARE_METAL_SEMIHOSTING_H
#define BARE_METAL_SEMIHOSTING_H

/* Writes a NUL-terminated text to the host's console. */
void console_write(const char *text);

/* Ends the program; under QEMU, the emulator exits with status 0 when `status` is 0, else 1. */
void board_exit(int status) __attribute__((noreturn));

#endif /* BARE_METAL_SEMIHOSTING_H */
