/* The DSP depthwise_conv_2d_s8_multiplier under its own names (microaot_dsp_...), to link beside the portable
 * kernel in the runtime tests (dsp_kernels_test.cpp); on the host it runs microaot/internal/dsp.h's C definitions. */
#define microaot_depthwise_conv_2d_s8_multiplier microaot_dsp_depthwise_conv_2d_s8_multiplier
#define microaot_depthwise_conv_2d_s8_multiplier_overlap microaot_dsp_depthwise_conv_2d_s8_multiplier_overlap
#include "../dsp/depthwise_conv_2d_s8_multiplier.c"
