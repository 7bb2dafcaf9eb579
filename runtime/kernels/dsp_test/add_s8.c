/* The DSP add_s8 under its own name (microaot_dsp_add_s8), to link beside the portable kernel in the
 * runtime tests (dsp_kernels_test.cpp); on the host it runs microaot/internal/dsp.h's C definitions. */
#define microaot_add_s8 microaot_dsp_add_s8
#include "../dsp/add_s8.c"
