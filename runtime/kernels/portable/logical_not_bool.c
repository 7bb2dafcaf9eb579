/* LOGICAL_NOT: 1 for a zero byte, 0 otherwise. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(logical_not_bool, microaot_unary_params, uint8_t, uint8_t, MICROAOT_LOGICAL_NOT)
