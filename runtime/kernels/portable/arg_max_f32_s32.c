/* ARG_MAX float: the index of the first largest element along the axis. */
#define MICROAOT_DTYPE f32
#define MICROAOT_REDUCE arg_max
#define MICROAOT_FN microaot_arg_max_f32_s32
#include "microaot/internal/templates/reduce.h"
