/* LOG float: logf of each element. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(log_f32, microaot_unary_params, float, float, MICROAOT_LOG_F32)
