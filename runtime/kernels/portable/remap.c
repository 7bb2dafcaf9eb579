/* REMAP for every element type: an odometer over the output's coordinates, the input offset kept as
 * running sums per dimension so each element costs one table read and one copy. */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/remap.h"

/* The offset of the outer coordinates plus one more dimension's entry; -1 (fill) absorbs. */
static int32_t add_offset(int32_t outer, int32_t entry) { return (outer < 0 || entry < 0) ? -1 : outer + entry; }

void microaot_remap(const microaot_remap_params* params, const void* input, void* output) {
  const int32_t rank = params->rank;
  const int32_t last = rank - 1;
  const size_t element_bytes = (size_t)params->element_bytes;
  const uint8_t* in = (const uint8_t*)input;
  uint8_t* out = (uint8_t*)output;
  const int32_t* table[MICROAOT_REMAP_MAX_RANK];
  int32_t index[MICROAOT_REMAP_MAX_RANK];
  int32_t partial[MICROAOT_REMAP_MAX_RANK + 1]; /* partial[d]: offset of coordinates 0..d-1 */
  const int32_t* next = params->offsets;
  partial[0] = 0;
  for (int32_t d = 0; d < rank; ++d) {
    if (params->out_dims[d] == 0) return; /* an empty output */
    table[d] = next;
    next += params->out_dims[d];
    index[d] = 0;
    partial[d + 1] = add_offset(partial[d], table[d][0]);
  }
  for (;;) {
    for (int32_t i = 0; i < params->out_dims[last]; ++i) {
      const int32_t offset = add_offset(partial[last], table[last][i]);
      memcpy(out, offset < 0 ? (const uint8_t*)params->fill : in + offset, element_bytes);
      out += element_bytes;
    }
    int32_t d = last - 1;
    while (d >= 0 && ++index[d] == params->out_dims[d]) index[d--] = 0;
    if (d < 0) return;
    for (; d < last; ++d) partial[d + 1] = add_offset(partial[d], table[d][index[d]]);
  }
}
