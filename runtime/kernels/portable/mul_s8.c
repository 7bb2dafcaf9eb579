/* MUL int8: TFLM's reference arithmetic (product of the offset inputs, one rescale),
 * over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/mul.h"

MICROAOT_DEFINE_BINARY_KERNEL(mul_s8, microaot_mul_params_q, int8_t, MICROAOT_MUL_QUANTIZED)
