/* LESS_EQUAL int32: input1 <= input2, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/comparisons.h"

MICROAOT_DEFINE_COMPARISON_KERNEL(less_equal_s32, microaot_binary_params, int32_t, MICROAOT_COMPARE_VALUE, <=)
