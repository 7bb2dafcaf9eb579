/* Kernel of the data-movement operators whose every output element is one input element (or a fill value):
 * TRANSPOSE, SLICE, STRIDED_SLICE, PAD, PADV2, MIRROR_PAD, REVERSE_V2, BROADCAST_TO, DEPTH_TO_SPACE, ...
 * The compiler reduces each to per-dimension tables: the input byte offset an output coordinate contributes.
 * Byte-generic: one kernel for every element type. */
#ifndef MICROAOT_KERNELS_REMAP_H
#define MICROAOT_KERNELS_REMAP_H

#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_REMAP_MAX_RANK 8

#define MICROAOT_FIELDS_remap_params(X)                                                                   \
  X(I32, rank)              /* 1..MICROAOT_REMAP_MAX_RANK */                                              \
  X(I32, element_bytes)     /* bytes of one element */                                                    \
  X(I32_ARRAY, out_dims)    /* the output's dimensions (rank entries) */                          \
  X(I32_ARRAY, offsets)     /* per dimension, per coordinate: input byte offset, or -1 where it is fill */ \
  X(I8_ARRAY, fill)         /* element_bytes bytes: the value of fill elements */
MICROAOT_DEFINE_PARAMS(remap_params)

/* output[o] = input bytes at sum_d offsets_d[o_d], or `fill` when any offsets_d[o_d] is -1. */
void microaot_remap(const microaot_remap_params* params, const void* input, void* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_REMAP_H */
