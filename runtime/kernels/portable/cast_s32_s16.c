/* CAST int32 -> int16 (static_cast, low bits kept). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_s32_s16, microaot_unary_params, int32_t, int16_t, MICROAOT_CAST_INT_TO_S16)
