/* float32 TRANSPOSE_CONV, portable C99: TFLite's reference sums, added in its order, + bias, then the
 * activation clamp. */
#define MICROAOT_DTYPE f32
#define MICROAOT_FN microaot_transpose_conv_f32
#include "microaot/internal/templates/transpose_conv.h"
