/* The SVDF packed ring kernel, int8 weights_time and state (microaot/kernels/svdf.h). */
#define MICROAOT_FN microaot_svdf_ring_s8_s8_packed
#define MICROAOT_SVDF_STATE int8_t
#define MICROAOT_SVDF_STATE_MIN (-128)
#define MICROAOT_SVDF_STATE_MAX 127
#define MICROAOT_SVDF_WIDE_STATE 0
#include "microaot/internal/templates/svdf_packed.h"
