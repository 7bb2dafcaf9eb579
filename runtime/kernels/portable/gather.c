/* GATHER and EMBEDDING_LOOKUP for every element type: per batch and outer index, the block each index picks;
 * an index outside [0, axis_size) stops before any read of it. */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/gather.h"

microaot_status microaot_gather(const microaot_gather_params* params, const void* input, const int32_t* indices,
                                void* output) {
  const size_t inner = (size_t)params->inner_bytes;
  const size_t block_bytes = (size_t)params->axis_size * inner; /* one [axis, inner] block of the input */
  const uint8_t* in = (const uint8_t*)input;
  uint8_t* out = (uint8_t*)output;
  for (int32_t batch = 0; batch < params->batch_count; ++batch) {
    const int32_t* batch_indices = indices + (size_t)batch * (size_t)params->coord_count;
    for (int32_t outer = 0; outer < params->outer_count; ++outer, in += block_bytes) {
      for (int32_t c = 0; c < params->coord_count; ++c, out += inner) {
        const int32_t index = batch_indices[c];
        if (index < 0 || index >= params->axis_size) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
        memcpy(out, in + (size_t)index * inner, inner);
      }
    }
  }
  return MICROAOT_STATUS_OK;
}
