/* CAST bool -> int8 (static_cast). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_bool_s8, microaot_unary_params, uint8_t, int8_t, MICROAOT_CAST_INT_TO_S8)
