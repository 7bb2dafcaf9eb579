/* NEG float: -x. */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(neg_f32, microaot_unary_params, float, float, MICROAOT_NEG_F32)
