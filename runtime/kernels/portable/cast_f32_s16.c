/* CAST float32 -> int16 (static_cast: truncated toward zero, low bits kept). */
#include "microaot/kernels/cast.h"

MICROAOT_DEFINE_UNARY_KERNEL(cast_f32_s16, microaot_unary_params, float, int16_t, MICROAOT_CAST_F32_TO_S16)
