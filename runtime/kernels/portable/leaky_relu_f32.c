/* LEAKY_RELU float: x for x > 0, alpha * x otherwise. */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(leaky_relu_f32, microaot_leaky_relu_params_f32, float, float, MICROAOT_LEAKY_RELU_F32)
