/* ELU float: x for x >= 0, expm1f(x) otherwise. */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(elu_f32, microaot_unary_params, float, float, MICROAOT_ELU_F32)
