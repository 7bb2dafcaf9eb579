/* QUANTIZE float32 -> int16: TFLM's AffineQuantize, round(x / scale) + zero point, clamped. */
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_quantize_f32_s16
#include "microaot/internal/templates/quantize.h"
