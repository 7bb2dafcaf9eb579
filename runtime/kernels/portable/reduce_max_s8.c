/* REDUCE_MAX int8: the largest element of each group (input and output share their quantization). */
#define MICROAOT_DTYPE s8
#define MICROAOT_REDUCE max
#define MICROAOT_FN microaot_reduce_max_s8
#include "microaot/internal/templates/reduce.h"
