/* SVDF, int8 input with int8 weights_time and state. */
#define MICROAOT_FN microaot_svdf_s8_s8
#define MICROAOT_RING_FN microaot_svdf_ring_s8_s8
#define MICROAOT_SVDF_STATE int8_t
#define MICROAOT_SVDF_STATE_MIN (-128)
#define MICROAOT_SVDF_STATE_MAX 127
#include "microaot/internal/templates/svdf.h"
