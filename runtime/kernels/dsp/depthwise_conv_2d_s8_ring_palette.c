/* int8 DEPTHWISE_CONV_2D over palettised filters through the widened ring alone: depthwise_conv_2d_s8_widened_palette
 * for the layers whose every row the ring computes (microaot_fit_depthwise_ring_palette: stride 1, rows of 3 to 12
 * pixels; KWS's), as depthwise_conv_2d_s8_ring is to the full DSP kernel, so that a model whose palettised depthwise
 * layers all do links no unrolled windows (microaot/internal/templates/dsp_depthwise_palette.h). Any other layer
 * is refused with a status before a byte of the output is written. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_ring_rows.c */
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_ring_palette
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_ring_palette_overlap
#define MICROAOT_DWP_UNROLLED 0
#include "microaot/internal/templates/dsp_depthwise_palette.h"
