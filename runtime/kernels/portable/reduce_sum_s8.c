/* SUM and MEAN int8: TFLM's raw int32 sum of each group, less zero point * group size, one rescale. */
#define MICROAOT_DTYPE s8
#define MICROAOT_REDUCE sum
#define MICROAOT_FN microaot_reduce_sum_s8
#include "microaot/internal/templates/reduce.h"
