/* SQUARED_DIFFERENCE int8: TFLM's reference arithmetic (inputs shifted left by 7, scaled, difference squared,
 * rescaled), over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/squared_difference.h"

MICROAOT_DEFINE_BINARY_KERNEL(squared_difference_s8, microaot_add_params_q, int8_t,
                              MICROAOT_SQUARED_DIFFERENCE_QUANTIZED)
