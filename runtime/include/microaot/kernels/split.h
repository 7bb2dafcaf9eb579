/* Kernel of SPLIT, SPLIT_V and UNPACK: one tensor cut along an axis into consecutive pieces, the mirror of
 * concatenation.h. Byte-generic, one kernel for every element type: TFLite Micro copies the values as they
 * are, so each piece is a byte range per outer index. */
#ifndef MICROAOT_KERNELS_SPLIT_H
#define MICROAOT_KERNELS_SPLIT_H

#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_FIELDS_split_params(X)                                                       \
  X(I32, outer_count)       /* product of the input's dimensions before the axis */           \
  X(I32, output_count)      /* entries of `outputs` and of slice_bytes */                       \
  X(I32_ARRAY, slice_bytes) /* per output: its bytes from the axis on (axis size x inner x element size) */
MICROAOT_DEFINE_PARAMS(split_params)

void microaot_split(const microaot_split_params* params, const void* input, void* const* outputs);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_SPLIT_H */
