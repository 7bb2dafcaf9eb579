/* ARG_MAX int8: the index of the first largest element along the axis. */
#define MICROAOT_DTYPE s8
#define MICROAOT_REDUCE arg_max
#define MICROAOT_FN microaot_arg_max_s8_s32
#include "microaot/internal/templates/reduce.h"
