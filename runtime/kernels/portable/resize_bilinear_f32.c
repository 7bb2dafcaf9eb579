/* RESIZE_BILINEAR, float32. */
#define MICROAOT_DTYPE f32
#define MICROAOT_FN microaot_resize_bilinear_f32
#include "microaot/internal/templates/resize_bilinear.h"
