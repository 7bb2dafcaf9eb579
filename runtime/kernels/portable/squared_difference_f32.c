/* SQUARED_DIFFERENCE float: (input1 - input2)^2, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/squared_difference.h"

MICROAOT_DEFINE_BINARY_KERNEL(squared_difference_f32, microaot_binary_params, float, MICROAOT_SQUARED_DIFFERENCE_FLOAT)
