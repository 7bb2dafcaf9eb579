/* PRELU float: x for x >= 0, x * alpha otherwise, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_BINARY_KERNEL(prelu_f32, microaot_prelu_params_f32, float, MICROAOT_PRELU_F32)
