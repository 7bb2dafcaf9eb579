/* FLOOR float: floorf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(floor_f32, microaot_unary_params, float, float, MICROAOT_FLOOR_F32)
