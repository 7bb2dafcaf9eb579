/* Kernel of CONCATENATION: the inputs laid side by side along one axis. Byte-generic, one kernel for every
 * element type: TFLite Micro requires int8 inputs quantized exactly as the output and copies the values of
 * the other types as they are, so concatenation is a copy of byte ranges. */
#ifndef MICROAOT_KERNELS_CONCATENATION_H
#define MICROAOT_KERNELS_CONCATENATION_H

#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_FIELDS_concatenation_params(X)                                              \
  X(I32, outer_count)       /* product of the output's dimensions before the axis */         \
  X(I32, input_count)       /* entries of `inputs` and of slice_bytes */                       \
  X(I32_ARRAY, slice_bytes) /* per input: its bytes from the axis on (axis size x inner x element size) */
MICROAOT_DEFINE_PARAMS(concatenation_params)

void microaot_concatenation(const microaot_concatenation_params* params, const void* const* inputs, void* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_CONCATENATION_H */
