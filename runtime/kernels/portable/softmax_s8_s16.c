/* SOFTMAX int8 -> int16 over the last dimension: the int8 kernel's arithmetic with 16 output bits, as TFLM
 * does (microaot/internal/templates/softmax_s8.h); same parameters as the int8 -> int8 kernel. */
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_softmax_s8_s16
#include "microaot/internal/templates/softmax_s8.h"
