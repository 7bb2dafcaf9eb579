/* CAST bool -> int32 (static_cast). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_bool_s32, microaot_unary_params, uint8_t, int32_t, MICROAOT_CAST_INT_TO_S32)
