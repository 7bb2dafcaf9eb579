/* One push of the frame ring buffer (microaot/kernels/ring.h): the unit goes to slot q and to its mirror q + slots
 * (slot 2 * slots - 1 does not exist), and the position moves to the slot after q, where the window of the
 * last `slots` units now starts. */
#include "microaot/kernels/ring.h"

void microaot_ring_push(const microaot_ring_push_params* params, const void* unit, void* storage, void* position) {
  const size_t bytes = (size_t)params->unit_bytes;
  uint32_t q = microaot_ring_position(position, params->slots);
  uint8_t* slot = (uint8_t*)storage + q * bytes;
  memcpy(slot, unit, bytes);
  if (q + 1u < (uint32_t)params->slots) {
    memcpy(slot + (size_t)params->slots * bytes, unit, bytes);
    ++q;
  } else {
    q = 0u;
  }
  memcpy(position, &q, sizeof q);
}
