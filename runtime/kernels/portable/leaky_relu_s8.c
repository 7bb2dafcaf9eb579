/* LEAKY_RELU int8: two rescales by sign (TFLM's QuantizeLeakyRelu). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(leaky_relu_s8, microaot_leaky_relu_params_q, int8_t, int8_t, MICROAOT_LEAKY_RELU_Q)
