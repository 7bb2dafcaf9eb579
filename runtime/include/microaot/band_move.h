/* The fused bands' line-buffer moves (the generated step function): n bytes from src to dst, the ranges possibly
 * overlapping. A move to the buffer's front (dst <= src, as the band schedule's moves are) is a forward copy
 * 16 bytes a step on an MVE target (each chunk loaded before a store reaches it; IC's bands on the M55: 17.5 K
 * instructions fewer than newlib's memmove). Elsewhere, and for a move up, memmove. */
#ifndef MICROAOT_BAND_MOVE_H
#define MICROAOT_BAND_MOVE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/mve_lanes.h"

static inline void microaot_band_move(void* dst, const void* src, size_t n) {
#if MICROAOT_MVE
  if ((uintptr_t)dst <= (uintptr_t)src && n <= (size_t)INT32_MAX) {
    microaot_mve_copy((int8_t*)dst, (const int8_t*)src, (int32_t)n);
    return;
  }
#endif
  memmove(dst, src, n);
}

#endif /* MICROAOT_BAND_MOVE_H */
