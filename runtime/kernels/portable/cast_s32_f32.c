/* CAST int32 -> float32 (static_cast). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_s32_f32, microaot_unary_params, int32_t, float, MICROAOT_CAST_INT_TO_F32)
