/* SQUARED_DIFFERENCE int16: TFLM's reference arithmetic (inputs scaled, difference squared, rescaled), over the
 * broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/squared_difference.h"

MICROAOT_DEFINE_BINARY_KERNEL(squared_difference_s16, microaot_add_params_q, int16_t,
                              MICROAOT_SQUARED_DIFFERENCE_QUANTIZED)
