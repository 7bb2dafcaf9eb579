/* int8 DEPTHWISE_CONV_2D over palettised filters (microaot/internal/palette.h; each channel's taps a row),
 * bit-exact with depthwise_conv_2d_s8. */
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_s8_palette
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_palette_overlap
#include "microaot/internal/templates/palette_conv.h"
