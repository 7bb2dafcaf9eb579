/* EXP float: expf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(exp_f32, microaot_unary_params, float, float, MICROAOT_EXP_F32)
