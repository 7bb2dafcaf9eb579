/* DIV float: input1 / input2, then the activation clamp, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/div.h"

MICROAOT_DEFINE_BINARY_KERNEL(div_f32, microaot_binary_params_f32, float, MICROAOT_DIV_FLOAT)
