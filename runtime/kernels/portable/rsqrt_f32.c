/* RSQRT float: 1 / sqrtf(x). */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(rsqrt_f32, microaot_unary_params, float, float, MICROAOT_RSQRT_F32)
