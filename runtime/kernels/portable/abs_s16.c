/* ABS int16: |x - input zero point| rescaled to the output (TFLM's AbsEvalQuantized). */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(abs_s16, microaot_unary_params_q, int16_t, int16_t, MICROAOT_ABS_Q)
