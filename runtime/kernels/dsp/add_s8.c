/* ADD int8 for a cpu with the DSP extension, bit-exact with the portable kernel: the same walk and arithmetic
 * (inputs shifted left, rescaled to a common scale, summed, rescaled to the output), each of the three
 * rescalings by microaot_dsp_requantize, which computes TFLM's rounding without branches on the value. */
#include "microaot/dsp_dot.h"
#include "microaot/kernels/add.h"

/* Input k (1 or 2) on the common scale. */
#define DSP_ADD_RESCALED(p, k, q)                                                                        \
  microaot_dsp_requantize(((q) + (p)->input##k##_offset) * ((int32_t)1 << (p)->left_shift),              \
                          (p)->input##k##_multiplier, (int)(p)->input##k##_shift)
#define DSP_ADD_QUANTIZED(p, a, b)                                                                       \
  microaot_clamp_s32(microaot_dsp_requantize(DSP_ADD_RESCALED(p, 1, a) + DSP_ADD_RESCALED(p, 2, b),      \
                                             (p)->output_multiplier, (int)(p)->output_shift) +           \
                         (p)->output_offset,                                                             \
                     (p)->activation_min, (p)->activation_max)

MICROAOT_DEFINE_BINARY_KERNEL(add_s8, microaot_add_params_q, int8_t, DSP_ADD_QUANTIZED)
