/* Hooks between the generated code and your platform. platform.c (in the output folder) gives weak
 * defaults that do nothing; define a function of the same name in your firmware to replace one. */
#ifndef MICROAOT_PLATFORM_H
#define MICROAOT_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A free-running cycle counter (e.g. DWT->CYCCNT); the default returns 0. */
uint32_t microaot_platform_cycle_count(void);

/* A line of text for the log; the default drops it. */
void microaot_platform_log(const char *message);

/* Data-cache maintenance around DMA: clean before a peripheral reads memory the CPU wrote,
 * invalidate before the CPU reads memory a peripheral wrote. The defaults do nothing. */
void microaot_platform_cache_clean(const void *data, size_t size);
void microaot_platform_cache_invalidate(void *data, size_t size);

/* Called by the executor around every operator when it is built with -DMICROAOT_PROFILE. `step` is the
 * operator's position in the schedule (network_info.txt), `op_name` its TFLite name (e.g. "CONV_2D"). */
void microaot_platform_op_begin(int step, const char *op_name);
void microaot_platform_op_end(int step, const char *op_name);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_PLATFORM_H */
