/* SIN float: sinf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(sin_f32, microaot_unary_params, float, float, MICROAOT_SIN_F32)
