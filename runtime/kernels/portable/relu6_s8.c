/* RELU6 int8: a clamp to [0, 6] in the input's quantization (TFLM's Relu6Quantized). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(relu6_s8, microaot_clamp_params_q, int8_t, int8_t, MICROAOT_CLAMP_Q)
