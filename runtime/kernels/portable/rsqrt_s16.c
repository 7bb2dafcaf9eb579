/* RSQRT int16: fixed-point 1/sqrt of the input, rescaled (TFLM's RsqrtEvalQuantized). */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(rsqrt_s16, microaot_unary_params_q, int16_t, int16_t, MICROAOT_RSQRT_Q)
