/* DEQUANTIZE int8 -> float32: scale * (x - zero point), one float multiply as TFLM's Dequantize. */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_dequantize_s8_f32
#include "microaot/internal/templates/dequantize.h"
