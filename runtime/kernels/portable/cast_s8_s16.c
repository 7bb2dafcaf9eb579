/* CAST int8 -> int16 (static_cast). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_s8_s16, microaot_unary_params, int8_t, int16_t, MICROAOT_CAST_INT_TO_S16)
