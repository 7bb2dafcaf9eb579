/* RSQRT int8: fixed-point 1/sqrt of the offset input, rescaled (TFLM's RsqrtEvalQuantized). */
#include "microaot/kernels/math.h"

MICROAOT_DEFINE_UNARY_KERNEL(rsqrt_s8, microaot_unary_params_q, int8_t, int8_t, MICROAOT_RSQRT_Q)
