/* ROUND float: to the nearest integer, halves to even. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(round_f32, microaot_unary_params, float, float, MICROAOT_ROUND_F32)
