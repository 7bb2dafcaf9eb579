/* RELU int8: rescaled to the output, clamped below at its zero point (TFLM's ReluQuantized). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(relu_s8, microaot_unary_params_q, int8_t, int8_t, MICROAOT_RELU_Q)
