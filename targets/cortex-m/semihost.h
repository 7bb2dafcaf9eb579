/* Minimal Arm semihosting (BKPT 0xAB) for the bench harness: files on the host, console text, exit.
 * QEMU serves these with `-semihosting-config enable=on,target=native`. */
#ifndef MICROAOT_SEMIHOST_H
#define MICROAOT_SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

#define SEMIHOST_MODE_READ_BINARY 1
#define SEMIHOST_MODE_WRITE_BINARY 5

/* A handle (>= 0), or -1 when the host cannot open `path`. */
int32_t semihost_open(const char *path, int32_t mode);
int32_t semihost_close(int32_t handle);
/* Both return 0 when all `size` bytes were transferred. */
int32_t semihost_read(int32_t handle, void *data, size_t size);
int32_t semihost_write(int32_t handle, const void *data, size_t size);
/* Length of an open file in bytes, or -1. */
int32_t semihost_file_length(int32_t handle);
/* The command line given to QEMU with `-semihosting-config arg=...`, NUL-terminated; 0 on success. */
int32_t semihost_command_line(char *buffer, size_t size);
/* Text on the host's console. */
void semihost_print(const char *text);
/* Ends the emulation: QEMU exits with status 0 when `success` is non-zero, else 1. */
void semihost_exit(int success) __attribute__((noreturn));

#endif /* MICROAOT_SEMIHOST_H */
