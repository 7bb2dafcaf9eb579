/* LOGISTIC float: TFLM's 1 / (1 + exp(-x)) with its cut-offs. */
#include "microaot/kernels/sigmoid.h"

MICROAOT_DEFINE_UNARY_KERNEL(logistic_f32, microaot_unary_params, float, float, MICROAOT_LOGISTIC_F32)
