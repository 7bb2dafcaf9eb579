/* LESS float: input1 < input2, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/comparisons.h"

MICROAOT_DEFINE_COMPARISON_KERNEL(less_f32, microaot_binary_params, float, MICROAOT_COMPARE_VALUE, <)
