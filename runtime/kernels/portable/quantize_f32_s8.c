/* QUANTIZE float32 -> int8: TFLM's AffineQuantize, round(x / scale) + zero point, clamped. */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_quantize_f32_s8
#include "microaot/internal/templates/quantize.h"
