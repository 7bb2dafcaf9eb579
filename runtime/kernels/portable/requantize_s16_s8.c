/* QUANTIZE int16 -> int8: rescale to the output's scale and zero point (TFLM's Requantize). */
#define MICROAOT_DTYPE_IN s16
#define MICROAOT_DTYPE_OUT s8
#define MICROAOT_FN microaot_requantize_s16_s8
#include "microaot/internal/templates/requantize.h"
