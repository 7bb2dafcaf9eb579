/* RESIZE_BILINEAR, int8: TFLM's 10-bit fixed-point weights, values blended as they are (no rescale). */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_resize_bilinear_s8
#include "microaot/internal/templates/resize_bilinear.h"
