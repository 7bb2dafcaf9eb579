/* RELU float: max(x, 0). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(relu_f32, microaot_unary_params, float, float, MICROAOT_RELU_F32)
