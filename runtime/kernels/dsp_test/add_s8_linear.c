/* The DSP add_s8_linear under its own name (microaot_dsp_add_s8_linear), to link beside the portable kernel in
 * the runtime tests (dsp_kernels_test.cpp); on the host it runs the C definitions of the instructions. */
#define microaot_add_s8_linear microaot_dsp_add_s8_linear
#include "../dsp/add_s8_linear.c"
