/* SUB int8: TFLM's reference arithmetic (inputs shifted left by 20, scaled, subtracted, rescaled), over the
 * broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/add.h"

MICROAOT_DEFINE_BINARY_KERNEL(sub_s8, microaot_add_params_q, int8_t, MICROAOT_SUB_QUANTIZED)
