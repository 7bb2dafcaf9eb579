/* LOGISTIC int16: the interpolated sigmoid table (TFLM's reference). */
#include "microaot/kernels/sigmoid.h"

MICROAOT_DEFINE_UNARY_KERNEL(logistic_s16, microaot_sigmoid_params_s16, int16_t, int16_t, MICROAOT_LOGISTIC_S16)
