/* SUB int16: TFLM's reference arithmetic (inputs shifted left by 15, scaled, subtracted, rescaled), each rescaling
 * in one rounding (microaot/internal/rescale_s16.h), over the broadcast walk (microaot/broadcast.h). */
#include "microaot/internal/rescale_s16.h"

static int sub_s16_constants(const microaot_add_params_q* p, microaot_add_s16_constants* k) {
  return microaot_add_s16_constants_of(p, 1, k);
}

MICROAOT_DEFINE_S16_ONE_ROUNDING_KERNEL(sub_s16, sub_s16_reference, microaot_add_params_q,
                                        microaot_add_s16_constants, sub_s16_constants, MICROAOT_SUB_S16_ONE_ROUNDING,
                                        MICROAOT_SUB_QUANTIZED, MICROAOT_S16_NO_ROWS,
                                        MICROAOT_S16_NO_WHOLE)
