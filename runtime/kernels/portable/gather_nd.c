/* GATHER_ND for every element type: per index tuple, the block it names; any entry outside its dimension
 * stops before the block is read. */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/gather.h"

microaot_status microaot_gather_nd(const microaot_gather_nd_params* params, const void* input, const int32_t* indices,
                                   void* output) {
  const size_t slice = (size_t)params->slice_bytes;
  uint8_t* out = (uint8_t*)output;
  for (int32_t s = 0; s < params->slice_count; ++s, out += slice) {
    const int32_t* tuple = indices + (size_t)s * (size_t)params->index_depth;
    size_t offset = 0;
    for (int32_t d = 0; d < params->index_depth; ++d) {
      if (tuple[d] < 0 || tuple[d] >= params->dims[d]) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
      offset += (size_t)tuple[d] * (size_t)params->strides[d];
    }
    memcpy(out, (const uint8_t*)input + offset, slice);
  }
  return MICROAOT_STATUS_OK;
}
