/* TANH int16: 2 * sigmoid(2x) - 1 from the interpolated sigmoid table (TFLM's reference). */
#include "microaot/kernels/sigmoid.h"

MICROAOT_DEFINE_UNARY_KERNEL(tanh_s16, microaot_sigmoid_params_s16, int16_t, int16_t, MICROAOT_TANH_S16)
