/* Kernel of DYNAMIC_UPDATE_SLICE: the operand copied to the output with the update written over it at start
 * indices that arrive at run time (int32 or int64). As TFLite Micro does, each start is clamped into
 * [0, operand dim - update dim] rather than refused. Byte-generic: one kernel for every element type. */
#ifndef MICROAOT_KERNELS_DYNAMIC_UPDATE_SLICE_H
#define MICROAOT_KERNELS_DYNAMIC_UPDATE_SLICE_H

#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_DYNAMIC_UPDATE_SLICE_MAX_RANK 8

#define MICROAOT_FIELDS_dynamic_update_slice_params(X)                                          \
  X(I32, rank)              /* 1..MICROAOT_DYNAMIC_UPDATE_SLICE_MAX_RANK */                     \
  X(I32, element_bytes)     /* bytes of one element of the operand, update and output */        \
  X(I32, index_bytes)       /* 4: int32 start indices, 8: int64 */                              \
  X(I32_ARRAY, operand_dims) /* rank entries */                                                 \
  X(I32_ARRAY, update_dims)  /* rank entries, each at most the operand's */
MICROAOT_DEFINE_PARAMS(dynamic_update_slice_params)

/* output = operand, then output[start + u] = update[u] for every coordinate u of the update. The output may
 * be the operand's buffer (no copy then). */
void microaot_dynamic_update_slice(const microaot_dynamic_update_slice_params* params, const void* operand,
                                   const void* update, const void* start_indices, void* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_DYNAMIC_UPDATE_SLICE_H */
