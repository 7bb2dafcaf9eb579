/* REDUCE_MIN int8: the smallest element of each group (input and output share their quantization). */
#define MICROAOT_DTYPE s8
#define MICROAOT_REDUCE min
#define MICROAOT_FN microaot_reduce_min_s8
#include "microaot/internal/templates/reduce.h"
