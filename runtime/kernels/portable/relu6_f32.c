/* RELU6 float: x clamped to [0, 6]. */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(relu6_f32, microaot_unary_params, float, float, MICROAOT_RELU6_F32)
