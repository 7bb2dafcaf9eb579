/* TANH int8: gemmlowp's fixed-point tanh of the Q4.27 input (TFLM's reference). */
#include "microaot/kernels/sigmoid.h"

MICROAOT_DEFINE_UNARY_KERNEL(tanh_s8, microaot_sigmoid_params_s8, int8_t, int8_t, MICROAOT_TANH_S8)
