/* int8 DEPTHWISE_CONV_2D through the widened ring alone over each channel group's constants computed at compile
 * time (--optimize speed): depthwise_conv_2d_s8_w16 for the layers the compiler gives the ring alone
 * (compiler/ops/depthwise_dsp_path.h: KWS's), as depthwise_conv_2d_s8_ring is to the full kernel, so that a model
 * whose layers all do links neither the small-map patch nor the unrolled windows. The words are the ones
 * depthwise_conv_2d_s8_w16 takes (microaot/internal/depthwise_group_words.h); a layer outside
 * microaot_fit_depthwise_widened_palette or the ring's geometry is refused with a status before a byte of the
 * output is written. Its work is per call (the geometry test, then the ring's rows): built for size. */
/* microaot-work: per call */
/* microaot-links: kernels/dsp/depthwise_conv_2d_s8_setup.c */
#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp_depthwise.h"

static int dww_takes(const dw_params* p) { return microaot_fit_depthwise_ring(p); }

/* The ring reads a row's inputs before its outputs overwrite them when the row is one tile (as
 * depthwise_conv_2d_s8_ring); otherwise row by row through the scratch row. */
static int dww_in_place(const dw_params* p) { return MICROAOT_DEPTHWISE_RING_TILE_WIDTH >= p->output_width; }

static void dww_rows(const dw_params* p, const int32_t* words, const int8_t* input, int8_t* output,
                     size_t row_stride, int32_t row_begin, int32_t row_end, int8_t* row) {
  const dw_group* groups = (const dw_group*)(const void*)words;
  (void)row; /* the ring widens a group's inputs itself */
  microaot_dsp_depthwise_rows_ringed_pre(p, input, groups, output, row_stride, row_begin, row_end, p->output_depth);
}

#define MICROAOT_FN microaot_depthwise_conv_2d_s8_ring_w16
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s8_ring_w16_overlap
#include "microaot/internal/templates/dsp_depthwise_words.h"
