/* REDUCE_MIN float: the smallest element of each group, from FLT_MAX as in TFLM. */
#define MICROAOT_DTYPE f32
#define MICROAOT_REDUCE min
#define MICROAOT_FN microaot_reduce_min_f32
#include "microaot/internal/templates/reduce.h"
