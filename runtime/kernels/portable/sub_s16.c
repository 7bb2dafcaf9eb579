/* SUB int16: TFLM's reference arithmetic (inputs shifted left by 15, scaled, subtracted, rescaled), over the
 * broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/add.h"

MICROAOT_DEFINE_BINARY_KERNEL(sub_s16, microaot_add_params_q, int16_t, MICROAOT_SUB_QUANTIZED)
