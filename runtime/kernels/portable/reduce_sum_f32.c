/* SUM and MEAN float: each group summed in TFLM's order, then divided by the divisor (MEAN: group size). */
#define MICROAOT_DTYPE f32
#define MICROAOT_REDUCE sum
#define MICROAOT_FN microaot_reduce_sum_f32
#include "microaot/internal/templates/reduce.h"
