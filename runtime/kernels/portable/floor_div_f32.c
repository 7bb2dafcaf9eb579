/* FLOOR_DIV float: floor(input1 / input2) computed in double, as TFLM, over the broadcast walk
 * (microaot/broadcast.h). */
#include "microaot/kernels/div.h"

MICROAOT_DEFINE_BINARY_KERNEL(floor_div_f32, microaot_binary_params, float, MICROAOT_FLOOR_DIV_FLOAT)
