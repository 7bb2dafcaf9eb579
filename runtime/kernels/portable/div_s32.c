/* DIV int32: input1 / input2 truncated, then the activation clamp, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/div.h"

MICROAOT_DEFINE_BINARY_KERNEL(div_s32, microaot_binary_params_s32, int32_t, MICROAOT_DIV_S32)
