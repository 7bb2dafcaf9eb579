/* int8 CONV_2D over palettised filters (microaot/internal/palette.h), bit-exact with conv_2d_s8. */
#define MICROAOT_CONV conv_2d
#define MICROAOT_FN microaot_conv_2d_s8_palette
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_palette_overlap
#include "microaot/internal/templates/palette_conv.h"
