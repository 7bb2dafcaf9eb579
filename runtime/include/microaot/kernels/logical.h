/* Kernels of LOGICAL_AND and LOGICAL_OR on bool tensors (a byte each; any non-zero byte is true, the output
 * is 0 or 1), element-wise with NumPy-style broadcasting (microaot/broadcast.h). */
#ifndef MICROAOT_KERNELS_LOGICAL_H
#define MICROAOT_KERNELS_LOGICAL_H

#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

void microaot_logical_and_bool(const microaot_binary_params* params, const uint8_t* input1, const uint8_t* input2,
                               uint8_t* output);
void microaot_logical_or_bool(const microaot_binary_params* params, const uint8_t* input1, const uint8_t* input2,
                              uint8_t* output);

/* The element functions of MICROAOT_DEFINE_BINARY_KERNEL, one kernel per file so a model links only its own. */
#define MICROAOT_LOGICAL_AND(p, a, b) ((a) && (b))
#define MICROAOT_LOGICAL_OR(p, a, b) ((a) || (b))

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_LOGICAL_H */
