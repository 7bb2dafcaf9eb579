/* The DSP depthwise_conv_2d_s8_ring under its own names (microaot_dsp_...), to link beside the portable kernel in
 * the runtime tests (dsp_kernels_test.cpp); on the host it runs microaot/internal/dsp.h's C definitions. */
#define microaot_depthwise_conv_2d_s8_ring microaot_dsp_depthwise_conv_2d_s8_ring
#define microaot_depthwise_conv_2d_s8_ring_overlap microaot_dsp_depthwise_conv_2d_s8_ring_overlap
#include "../dsp/depthwise_conv_2d_s8_ring.c"
