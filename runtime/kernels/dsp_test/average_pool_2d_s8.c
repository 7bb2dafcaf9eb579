/* The DSP average_pool_2d_s8 under its own names (microaot_dsp_average_pool_2d_s8, _overlap), to link beside
 * the portable kernel in the runtime tests (dsp_pool_test.cpp); on the host it runs microaot/internal/dsp.h's C
 * definitions. */
#define microaot_average_pool_2d_s8 microaot_dsp_average_pool_2d_s8
#define microaot_average_pool_2d_s8_overlap microaot_dsp_average_pool_2d_s8_overlap
#include "../dsp/average_pool_2d_s8.c"
