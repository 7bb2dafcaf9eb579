/* SQUARE float: x * x. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(square_f32, microaot_unary_params, float, float, MICROAOT_SQUARE_F32)
