/* The DSP average_pool_2d_s8_global under its own names (microaot_dsp_...), to link beside the portable kernel in
 * the runtime tests (dsp_pool_test.cpp); on the host it runs microaot/internal/dsp.h's C definitions. */
#define microaot_average_pool_2d_s8_global microaot_dsp_average_pool_2d_s8_global
#define microaot_average_pool_2d_s8_global_overlap microaot_dsp_average_pool_2d_s8_global_overlap
#include "../dsp/average_pool_2d_s8_global.c"
