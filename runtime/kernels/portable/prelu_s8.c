/* PRELU int8: TFLM's reference arithmetic (one rescale per sign), over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_BINARY_KERNEL(prelu_s8, microaot_prelu_params_q, int8_t, MICROAOT_PRELU_Q)
