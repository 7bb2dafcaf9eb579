/* The frame ring buffer (a streaming operator's frame window): a mirrored ring of `slots` units
 * (passes/ring_windows.cpp in the compiler): storage for 2 * slots - 1 units and a write position, both kept
 * from run to run. Each push writes the new unit at the position and again `slots` units further on (the last
 * slot has no mirror: nobody reads it), then advances the position; the window of the last `slots` units,
 * oldest first, is then always one contiguous run that starts at the position. A frame buffer moves by a
 * pointer instead of being copied whole every step. */
#ifndef MICROAOT_KERNELS_RING_H
#define MICROAOT_KERNELS_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_FIELDS_ring_push_params(X) \
  X(I32, unit_bytes) /* bytes one push adds */ \
  X(I32, slots)      /* units in the window */
MICROAOT_DEFINE_PARAMS(ring_push_params)

/* The position is a uint32 at any alignment (the planner's alignment may be 1); a value out of range, which
 * only corrupted memory can hold, is read modulo `slots` so no access leaves the storage. */
static inline uint32_t microaot_ring_position(const void* position, int32_t slots) {
  uint32_t q;
  memcpy(&q, position, sizeof q);
  return q % (uint32_t)slots;
}

/* Where the window starts, in bytes from the storage's start (the generated code adds it to the address). */
static inline size_t microaot_ring_window(const void* position, int32_t slots, int32_t unit_bytes) {
  return (size_t)microaot_ring_position(position, slots) * (size_t)unit_bytes;
}

void microaot_ring_push(const microaot_ring_push_params* params, const void* unit, void* storage, void* position);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_RING_H */
