/* HARD_SWISH float: x * min(6, max(0, x + 3)) / 6. */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(hard_swish_f32, microaot_unary_params, float, float, MICROAOT_HARD_SWISH_F32)
