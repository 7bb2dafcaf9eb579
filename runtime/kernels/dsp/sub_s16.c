/* SUB int16 for a cpu with the DSP extension, bit-exact with the portable kernel: two elements a pass
 * (microaot/internal/dsp_add_s16.h). */
#include "microaot/internal/dsp_add_s16.h"

#define DSP_SUB_S16_ELEMENT(k, a, b) MICROAOT_SUB_S16_ONE_ROUNDING(&(k)->rule, a, b)

MICROAOT_DEFINE_DSP_ADD_S16_KERNEL(sub_s16, -, 1, DSP_SUB_S16_ELEMENT, MICROAOT_SUB_QUANTIZED)
