/* TANH float: tanhf of each element. */
#include "microaot/kernels/sigmoid.h"

MICROAOT_DEFINE_UNARY_KERNEL(tanh_f32, microaot_unary_params, float, float, MICROAOT_TANH_F32)
