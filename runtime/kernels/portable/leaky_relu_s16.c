/* LEAKY_RELU int16: two rescales by sign (TFLM's QuantizeLeakyRelu). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(leaky_relu_s16, microaot_leaky_relu_params_q, int16_t, int16_t, MICROAOT_LEAKY_RELU_Q)
