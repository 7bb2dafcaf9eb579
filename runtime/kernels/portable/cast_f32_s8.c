/* CAST float32 -> int8 (static_cast: truncated toward zero, low bits kept). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_f32_s8, microaot_unary_params, float, int8_t, MICROAOT_CAST_F32_TO_S8)
