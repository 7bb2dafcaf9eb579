/* SUB float: input1 - input2, then the activation clamp, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/add.h"

MICROAOT_DEFINE_BINARY_KERNEL(sub_f32, microaot_binary_params_f32, float, MICROAOT_SUB_FLOAT)
