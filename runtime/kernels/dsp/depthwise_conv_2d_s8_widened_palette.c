/* int8 DEPTHWISE_CONV_2D over palettised filters (microaot/internal/palette.h: a channel's 9 taps are one row of
 * indices) with the DSP extension, bit-exact with microaot_depthwise_conv_2d_s8, for the layers the DSP kernel
 * computes through its widened weights (microaot_fit_depthwise_widened_palette: 3x3, no dilation, depth
 * multiplier 1, whole groups of 4 channels, within the DSP bounds): each group of 4 channels decoded once per
 * call, then the DSP kernel's own rows, the widened ring at stride 1 (rows of 3 or more pixels), else the
 * unrolled windows (microaot/internal/templates/dsp_depthwise_palette.h). Any other layer is refused with a
 * status before a byte of the output is written. */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_ring_rows.c */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_rows_3x3.c */
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_widened_palette
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_widened_palette_overlap
#define MICROAOT_DWP_UNROLLED 1
#include "microaot/internal/templates/dsp_depthwise_palette.h"
