/* ARG_MIN float: the index of the first smallest element along the axis. */
#define MICROAOT_DTYPE f32
#define MICROAOT_REDUCE arg_min
#define MICROAOT_FN microaot_arg_min_f32_s32
#include "microaot/internal/templates/reduce.h"
