/* DEQUANTIZE int16 -> float32: scale * (x - zero point), one float multiply as TFLM's Dequantize. */
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_dequantize_s16_f32
#include "microaot/internal/templates/dequantize.h"
