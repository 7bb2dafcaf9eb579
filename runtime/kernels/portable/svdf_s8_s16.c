/* SVDF, int8 input with int16 weights_time and state (TFLM's full-integer SVDF). */
#define MICROAOT_FN microaot_svdf_s8_s16
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s16
#define MICROAOT_SVDF_STATE int16_t
#define MICROAOT_SVDF_STATE_MIN (-32768)
#define MICROAOT_SVDF_STATE_MAX 32767
#include "microaot/internal/templates/svdf.h"
