/* Byte copy (CAST to the same type), forward, so an output starting at or before its input is safe. */
#include "microaot/kernels/cast.h"

void microaot_copy(const microaot_copy_params* params, const void* input, void* output) {
  const uint8_t* in = (const uint8_t*)input;
  uint8_t* out = (uint8_t*)output;
  int32_t i;
  for (i = 0; i < params->size; ++i) out[i] = in[i];
}
