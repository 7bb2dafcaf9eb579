/* EQUAL bool: input1 == input2 as truth values, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/comparisons.h"

MICROAOT_DEFINE_COMPARISON_KERNEL(equal_bool, microaot_binary_params, uint8_t, MICROAOT_COMPARE_TRUTH, ==)
