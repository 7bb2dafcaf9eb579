/* MUL int16: TFLM's reference arithmetic (symmetric inputs, product, one rescale),
 * over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/mul.h"

MICROAOT_DEFINE_BINARY_KERNEL(mul_s16, microaot_mul_params_q, int16_t, MICROAOT_MUL_QUANTIZED)
