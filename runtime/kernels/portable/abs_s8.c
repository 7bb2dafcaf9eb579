/* ABS int8: |x - input zero point| rescaled to the output (TFLM's AbsEvalQuantized). */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(abs_s8, microaot_unary_params_q, int8_t, int8_t, MICROAOT_ABS_Q)
