/* SOFTMAX int8 -> int8 over the last dimension, TFLM's reference arithmetic (microaot/internal/templates/softmax_s8.h). */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_softmax_s8
#include "microaot/internal/templates/softmax_s8.h"
