/* The DSP average_pool_2d_s8_lanes under its own names (microaot_dsp_...), to link beside the portable kernel in
 * the runtime tests (dsp_pool_test.cpp); on the host it runs microaot/internal/dsp.h's C definitions. */
#define microaot_average_pool_2d_s8_lanes microaot_dsp_average_pool_2d_s8_lanes
#define microaot_average_pool_2d_s8_lanes_overlap microaot_dsp_average_pool_2d_s8_lanes_overlap
#include "../dsp/average_pool_2d_s8_lanes.c"
