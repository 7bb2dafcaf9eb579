/* EQUAL int64: input1 == input2, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/comparisons.h"

MICROAOT_DEFINE_COMPARISON_KERNEL(equal_s64, microaot_binary_params, int64_t, MICROAOT_COMPARE_VALUE, ==)
