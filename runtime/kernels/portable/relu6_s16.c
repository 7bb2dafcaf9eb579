/* RELU6 int16: a clamp to [0, 6] in the input's quantization (TFLM's Relu6Quantized). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(relu6_s16, microaot_clamp_params_q, int16_t, int16_t, MICROAOT_CLAMP_Q)
