/* REDUCE_MAX float: the largest element of each group, from -FLT_MAX as in TFLM. */
#define MICROAOT_DTYPE f32
#define MICROAOT_REDUCE max
#define MICROAOT_FN microaot_reduce_max_f32
#include "microaot/internal/templates/reduce.h"
