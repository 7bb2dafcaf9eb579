/* ADD int32: input1 + input2 wrapping around, then the activation clamp, over the broadcast walk
 * (microaot/broadcast.h). */
#include "microaot/kernels/add.h"

MICROAOT_DEFINE_BINARY_KERNEL(add_s32, microaot_binary_params_s32, int32_t, MICROAOT_ADD_S32)
