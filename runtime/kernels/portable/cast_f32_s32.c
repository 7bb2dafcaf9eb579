/* CAST float32 -> int32 (static_cast: truncated toward zero). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_f32_s32, microaot_unary_params, float, int32_t, MICROAOT_CAST_F32_TO_S32)
