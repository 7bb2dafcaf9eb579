/* GREATER_EQUAL int8: input1 >= input2 on their common scale (TFLM's rescale and compare), over the broadcast walk
 * (microaot/broadcast.h). */
#include "microaot/kernels/comparisons.h"

MICROAOT_DEFINE_COMPARISON_KERNEL(greater_equal_s8, microaot_comparison_params_s8, int8_t, MICROAOT_COMPARE_RESCALED,
                                  >=)
