/* SQUARED_DIFFERENCE int32: (input1 - input2)^2 wrapping around, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/squared_difference.h"

MICROAOT_DEFINE_BINARY_KERNEL(squared_difference_s32, microaot_binary_params, int32_t, MICROAOT_SQUARED_DIFFERENCE_S32)
