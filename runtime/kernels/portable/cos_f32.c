/* COS float: cosf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(cos_f32, microaot_unary_params, float, float, MICROAOT_COS_F32)
