/* The DSP fully_connected_s8 under its own names (microaot_dsp_...), to link beside the portable kernel in the
 * runtime tests (dsp_kernels_test.cpp); on the host it runs microaot/internal/dsp.h's C definitions. */
#define microaot_fully_connected_s8 microaot_dsp_fully_connected_s8
#include "../dsp/fully_connected_s8.c"
