/* DIV int8: TFLM's reference arithmetic (reciprocal of the divisor, one rescale), over the broadcast walk
 * (microaot/broadcast.h). */
#include "microaot/kernels/div.h"

MICROAOT_DEFINE_BINARY_KERNEL(div_s8, microaot_mul_params_q, int8_t, MICROAOT_DIV_QUANTIZED)
