/* Table lookup int8 -> int8 (ELU): one 256-entry table computed at compile time. */
#include "microaot/kernels/activations.h"

MICROAOT_DEFINE_UNARY_KERNEL(lut_s8, microaot_lut_params_s8, int8_t, int8_t, MICROAOT_LUT_S8)
