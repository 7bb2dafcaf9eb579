/* MUL int16: TFLM's reference arithmetic (symmetric inputs, product, one rescale in one rounding:
 * microaot/internal/rescale_s16.h), over the broadcast walk (microaot/broadcast.h). */
#include "microaot/internal/rescale_s16.h"

MICROAOT_DEFINE_S16_ONE_ROUNDING_KERNEL(mul_s16, mul_s16_reference, microaot_mul_params_q,
                                        microaot_mul_s16_constants, microaot_mul_s16_constants_of,
                                        MICROAOT_MUL_S16_ONE_ROUNDING, MICROAOT_MUL_QUANTIZED, MICROAOT_S16_NO_ROWS,
                                        MICROAOT_S16_NO_WHOLE)
