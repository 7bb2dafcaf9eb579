/* RELU int16: rescaled to the output, clamped below at its zero point (TFLM's ReluQuantized). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(relu_s16, microaot_unary_params_q, int16_t, int16_t, MICROAOT_RELU_Q)
