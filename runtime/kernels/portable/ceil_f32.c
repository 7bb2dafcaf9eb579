/* CEIL float: ceilf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(ceil_f32, microaot_unary_params, float, float, MICROAOT_CEIL_F32)
