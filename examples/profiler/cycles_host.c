/* microaot_platform_cycle_count() on a POSIX host: nanoseconds of CLOCK_MONOTONIC, in 32 bits (they wrap
 * every 4.3 s; the profiler subtracts in 32 bits, right for any operator shorter than that). */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <time.h>

#include "microaot/platform.h"

uint32_t microaot_platform_cycle_count(void) {
  struct timespec now;
  if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return 0u;
  return (uint32_t)now.tv_sec * 1000000000u + (uint32_t)now.tv_nsec;
}
