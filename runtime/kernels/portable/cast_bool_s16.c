/* CAST bool -> int16 (static_cast). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_bool_s16, microaot_unary_params, uint8_t, int16_t, MICROAOT_CAST_INT_TO_S16)
