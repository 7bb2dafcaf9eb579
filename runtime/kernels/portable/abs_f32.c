/* ABS float: fabsf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(abs_f32, microaot_unary_params, float, float, MICROAOT_ABS_F32)
