/* ADD int16 for a cpu with the DSP extension, bit-exact with the portable kernel: two elements a pass
 * (microaot/internal/dsp_add_s16.h). */
#include "microaot/internal/dsp_add_s16.h"

#define DSP_ADD_S16_ELEMENT(k, a, b) MICROAOT_ADD_S16_ONE_ROUNDING(&(k)->rule, a, b)

MICROAOT_DEFINE_DSP_ADD_S16_KERNEL(add_s16, +, 0, DSP_ADD_S16_ELEMENT, MICROAOT_ADD_QUANTIZED)
