/* The kernel of SELECT_V2: output = condition ? x : y element by element, the three inputs broadcast together
 * (microaot/broadcast.h). Byte-generic: one kernel moves elements of any size, element_size bytes each; the
 * condition is bool (a byte, any non-zero byte true). The output may overlap x or y where that input is not
 * broadcast, as the walk allows. */
#ifndef MICROAOT_KERNELS_SELECT_V2_H
#define MICROAOT_KERNELS_SELECT_V2_H

#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_FIELDS_select_v2_params(X) \
  MICROAOT_BROADCAST3_FIELDS(X)             \
  X(I32, element_size) /* bytes of one element of x, y and the output */
MICROAOT_DEFINE_PARAMS(select_v2_params)

void microaot_select_v2(const microaot_select_v2_params* params, const uint8_t* condition, const void* x,
                        const void* y, void* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_SELECT_V2_H */
