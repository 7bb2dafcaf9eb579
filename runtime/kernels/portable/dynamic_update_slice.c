/* DYNAMIC_UPDATE_SLICE for every element type: the operand copied, then the update's rows (its last
 * dimension) written one memcpy each, an odometer walking the update's outer coordinates. */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/dynamic_update_slice.h"

/* Start index d, read from int32 or int64 storage, clamped into [0, operand_dims[d] - update_dims[d]]. */
static int64_t clamped_start(const microaot_dynamic_update_slice_params* params, const void* start_indices,
                             int32_t d) {
  const int64_t limit = (int64_t)params->operand_dims[d] - (int64_t)params->update_dims[d];
  if (limit <= 0) return 0; /* the only start there is: nothing to read (a scalar has no index entry) */
  const int64_t raw = params->index_bytes == 8 ? ((const int64_t*)start_indices)[d] : (int64_t)((const int32_t*)start_indices)[d];
  return raw < 0 ? 0 : (raw > limit ? limit : raw);
}

static size_t element_count(const int32_t* dims, int32_t rank) {
  size_t count = 1;
  for (int32_t d = 0; d < rank; ++d) count *= (size_t)dims[d];
  return count;
}

void microaot_dynamic_update_slice(const microaot_dynamic_update_slice_params* params, const void* operand,
                                   const void* update, const void* start_indices, void* output) {
  const int32_t rank = params->rank, last = params->rank - 1;
  const size_t element_bytes = (size_t)params->element_bytes;
  const size_t update_count = element_count(params->update_dims, rank);
  const size_t row_bytes = (size_t)params->update_dims[last] * element_bytes;
  const uint8_t* from = (const uint8_t*)update;
  size_t stride[MICROAOT_DYNAMIC_UPDATE_SLICE_MAX_RANK]; /* the output's byte strides */
  size_t origin = 0;                                      /* byte offset of the update's first element */
  int32_t index[MICROAOT_DYNAMIC_UPDATE_SLICE_MAX_RANK];
  if (operand != output) memcpy(output, operand, element_count(params->operand_dims, rank) * element_bytes);
  if (update_count == 0) return;
  stride[last] = element_bytes;
  for (int32_t d = last; d > 0; --d) stride[d - 1] = stride[d] * (size_t)params->operand_dims[d];
  for (int32_t d = 0; d < rank; ++d) {
    origin += (size_t)clamped_start(params, start_indices, d) * stride[d];
    index[d] = 0;
  }
  for (;;) {
    size_t offset = origin;
    for (int32_t d = 0; d < last; ++d) offset += (size_t)index[d] * stride[d];
    memcpy((uint8_t*)output + offset, from, row_bytes);
    from += row_bytes;
    int32_t d = last - 1;
    while (d >= 0 && ++index[d] == params->update_dims[d]) index[d--] = 0;
    if (d < 0) return;
  }
}
