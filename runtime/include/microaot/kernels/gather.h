/* Kernels of GATHER, EMBEDDING_LOOKUP and GATHER_ND: blocks of the input picked by int32 indices that may
 * come from the model's inputs, so the kernels check every index against its dimension before they read,
 * and refuse the data (MICROAOT_STATUS_VALUE_OUT_OF_RANGE) as TFLite Micro returns an error. Byte-generic:
 * the values are copied as they are, so one kernel serves every element type. */
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

/* GATHER_ND: the indices as [slice_count, index_depth], each tuple naming one block of the input. */
#define MICROAOT_FIELDS_gather_nd_params(X)                                                     \
  X(I32, slice_count)   /* index tuples, and blocks of the output */                            \
  X(I32, index_depth)   /* entries of a tuple: the input's leading dimensions it indexes */     \
  X(I32, slice_bytes)   /* bytes of one block (the dimensions after the indexed ones) */         \
  X(I32_ARRAY, dims)    /* per indexed dimension: its size, the bound of its index */            \
  X(I32_ARRAY, strides) /* per indexed dimension: the bytes from one index to the next */
MICROAOT_DEFINE_PARAMS(gather_nd_params)

microaot_status microaot_gather_nd(const microaot_gather_nd_params* params, const void* input, const int32_t* indices,
                                   void* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_GATHER_H */
