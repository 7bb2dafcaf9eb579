/* QUANTIZE int8 -> int16: rescale to the output's scale and zero point (TFLM's Requantize). */
#define MICROAOT_DTYPE_IN s8
#define MICROAOT_DTYPE_OUT s16
#define MICROAOT_FN microaot_requantize_s8_s16
#include "microaot/internal/templates/requantize.h"
