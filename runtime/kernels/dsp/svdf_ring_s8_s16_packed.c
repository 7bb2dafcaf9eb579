/* The SVDF packed ring kernel, int16 weights_time and state (microaot/kernels/svdf.h). */
#define MICROAOT_FN microaot_svdf_ring_s8_s16_packed
#define MICROAOT_SVDF_STATE int16_t
#define MICROAOT_SVDF_STATE_MIN (-32768)
#define MICROAOT_SVDF_STATE_MAX 32767
#define MICROAOT_SVDF_WIDE_STATE 1
#include "microaot/internal/templates/svdf_packed.h"
