/* SELECT_V2, byte-generic: each output element is copied byte by byte from x or y as its condition says,
 * over the three-input broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/select_v2.h"

static void select_v2_row(const void* params, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                          void* output, ptrdiff_t done, int32_t n) {
  const ptrdiff_t size = ((const microaot_select_v2_params*)params)->element_size;
  const uint8_t* condition = (const uint8_t*)inputs[0] + at[0];
  const uint8_t* x = (const uint8_t*)inputs[1] + at[1] * size;
  const uint8_t* y = (const uint8_t*)inputs[2] + at[2] * size;
  uint8_t* to = (uint8_t*)output + done * size;
  int32_t c;
  for (c = 0; c < n; ++c, to += size) {
    const uint8_t* from = condition[(ptrdiff_t)c * step[0]] ? x + (ptrdiff_t)c * step[1] * size
                                                             : y + (ptrdiff_t)c * step[2] * size;
    ptrdiff_t byte;
    for (byte = 0; byte < size; ++byte) to[byte] = from[byte];
  }
}

void microaot_select_v2(const microaot_select_v2_params* params, const uint8_t* condition, const void* x,
                        const void* y, void* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST3_OF(params);
  const void* inputs[3];
  inputs[0] = condition;
  inputs[1] = x;
  inputs[2] = y;
  microaot_broadcast_walk(&walk, params, inputs, output, select_v2_row);
}
