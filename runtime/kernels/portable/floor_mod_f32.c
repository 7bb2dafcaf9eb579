/* FLOOR_MOD float: fmod moved into the divisor's sign, as TFLM, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/div.h"

MICROAOT_DEFINE_BINARY_KERNEL(floor_mod_f32, microaot_binary_params, float, MICROAOT_FLOOR_MOD_FLOAT)
