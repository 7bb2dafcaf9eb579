/* PRELU int16 with an int8 alpha: TFLM's reference arithmetic (one rescale per sign), over the broadcast walk
 * (microaot/broadcast.h). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_MIXED_BINARY_KERNEL(prelu_s16, microaot_prelu_params_q, int16_t, int8_t, int16_t, MICROAOT_PRELU_Q)
