/* CAST int16 -> int32 (static_cast). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_s16_s32, microaot_unary_params, int16_t, int32_t, MICROAOT_CAST_INT_TO_S32)
