/* Kernel of GATHER and EMBEDDING_LOOKUP: blocks of the input picked by int32 indices that may come from the
 * model's inputs, so the kernel checks every index against its axis before it reads, and refuses the data
 * (MICROAOT_STATUS_VALUE_OUT_OF_RANGE) as TFLite Micro returns an error. Byte-generic: the values are copied
 * as they are, so one kernel serves every element type. */
#ifndef MICROAOT_KERNELS_GATHER_H
#define MICROAOT_KERNELS_GATHER_H

#include <stdint.h>

#include "microaot/params.h"
#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The input seen as [batch, outer, axis, inner] and the indices as [batch, coord]; the output is
 * [batch, outer, coord, inner]. */
#define MICROAOT_FIELDS_gather_params(X)                                                   \
  X(I32, batch_count) /* product of the first batch_dims dimensions, shared with the indices */ \
  X(I32, outer_count) /* product of the input's dimensions from batch_dims to the axis */   \
  X(I32, axis_size)   /* the input's dimension at the axis: indices must be in [0, axis_size) */ \
  X(I32, coord_count) /* indices per batch */                                             \
  X(I32, inner_bytes) /* bytes of one picked block (the dimensions after the axis) */
MICROAOT_DEFINE_PARAMS(gather_params)

microaot_status microaot_gather(const microaot_gather_params* params, const void* input, const int32_t* indices,
                                void* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_GATHER_H */
