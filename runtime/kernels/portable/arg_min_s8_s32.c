/* ARG_MIN int8: the index of the first smallest element along the axis. */
#define MICROAOT_DTYPE s8
#define MICROAOT_REDUCE arg_min
#define MICROAOT_FN microaot_arg_min_s8_s32
#include "microaot/internal/templates/reduce.h"
