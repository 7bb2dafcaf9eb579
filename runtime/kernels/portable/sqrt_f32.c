/* SQRT float: sqrtf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(sqrt_f32, microaot_unary_params, float, float, MICROAOT_SQRT_F32)
