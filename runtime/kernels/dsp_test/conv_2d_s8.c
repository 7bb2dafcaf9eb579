/* The DSP conv_2d_s8 under its own names (microaot_dsp_...), to link beside the portable kernel in the
 * runtime tests (dsp_kernels_test.cpp); on the host it runs microaot/internal/dsp.h's C definitions. */
#define microaot_conv_2d_s8 microaot_dsp_conv_2d_s8
#define microaot_conv_2d_s8_overlap microaot_dsp_conv_2d_s8_overlap
#define microaot_conv_2d_s8_portable microaot_dsp_test_conv_2d_s8_portable
#define microaot_conv_2d_s8_overlap_portable microaot_dsp_test_conv_2d_s8_overlap_portable
#include "../dsp/conv_2d_s8.c"
