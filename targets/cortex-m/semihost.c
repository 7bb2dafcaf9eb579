/* Arm semihosting calls: operation number in r0, pointer to an argument block in r1, result in r0. */
#include "semihost.h"

#include <string.h>

enum {
  SYS_OPEN = 0x01,
  SYS_CLOSE = 0x02,
  SYS_WRITE0 = 0x04,
  SYS_WRITE = 0x05,
  SYS_READ = 0x06,
  SYS_FLEN = 0x0C,
  SYS_GET_CMDLINE = 0x15,
  SYS_EXIT = 0x18
};

/* Reason codes of SYS_EXIT (on 32-bit Arm the code itself is the argument). */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_RUNTIME_ERROR 0x20023u

static int32_t semihost_call(int32_t operation, const void *argument) {
  register int32_t r0 __asm__("r0") = operation;
  register const void *r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

int32_t semihost_open(const char *path, int32_t mode) {
  const uint32_t block[3] = {(uint32_t)(uintptr_t)path, (uint32_t)mode, (uint32_t)strlen(path)};
  return semihost_call(SYS_OPEN, block);
}

int32_t semihost_close(int32_t handle) {
  const uint32_t block[1] = {(uint32_t)handle};
  return semihost_call(SYS_CLOSE, block);
}

int32_t semihost_read(int32_t handle, void *data, size_t size) {
  const uint32_t block[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)data, (uint32_t)size};
  return semihost_call(SYS_READ, block);
}

int32_t semihost_write(int32_t handle, const void *data, size_t size) {
  const uint32_t block[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)data, (uint32_t)size};
  return semihost_call(SYS_WRITE, block);
}

int32_t semihost_file_length(int32_t handle) {
  const uint32_t block[1] = {(uint32_t)handle};
  return semihost_call(SYS_FLEN, block);
}

int32_t semihost_command_line(char *buffer, size_t size) {
  uint32_t block[2];
  block[0] = (uint32_t)(uintptr_t)buffer;
  block[1] = (uint32_t)size;
  return semihost_call(SYS_GET_CMDLINE, block);
}

void semihost_print(const char *text) { (void)semihost_call(SYS_WRITE0, text); }

void semihost_exit(int success) {
  const uint32_t reason = success ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUNTIME_ERROR;
  (void)semihost_call(SYS_EXIT, (const void *)(uintptr_t)reason);
  for (;;) {
  }
}
