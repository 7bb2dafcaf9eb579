/* int8 k x k CONV_2D over palettised weights on the DSP (microaot/kernels/packed.h): four output channels at a
 * time decoded into a block of the whole window in the int16 layout of the packed loops
 * (microaot/internal/palette_dot.h), then every output pixel's window against it: an inner pixel's filter rows read
 * in place (each a run of the image row), an edge pixel's window gathered first (padding taps as the input zero
 * point, which the folded bias of the output step's table cancels). Each weight is decoded once per call. */
#include <stddef.h>

#include "microaot/internal/conv_window.h"
#include "microaot/internal/palette_dot.h"
#include "microaot/internal/palette_step.h"
#include "microaot/kernels/packed.h"

typedef microaot_conv_2d_params_q conv_params;

/* Filter rows shorter than this many groups are not read in place: a call per row costs more than the gather. */
#define MIN_RUN_GROUPS 2

#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif

/* The output columns [first, last] whose windows' columns are all inside the image (empty: first > last). */
static void inner_columns(const conv_params* p, int32_t* first, int32_t* last) {
  const int32_t room = p->input_width - p->filter_width + p->pad_width; /* the last column's x0 + pad */
  *first = (p->pad_width + p->stride_width - 1) / p->stride_width;
  *last = room < 0 ? -1 : room / p->stride_width;
  if (*last > p->output_width - 1) *last = p->output_width - 1;
}

/* One pixel's window against the block: its filter rows read in place from `tap` (its first tap), or, NULL, the
 * window gathered first. */
ALWAYS_INLINE void pixel_dot(const conv_params* p, const int8_t* image, int32_t oy, int32_t ox, const int8_t* tap,
                             const uint32_t* block, int8_t* gathered, int32_t acc[4]) {
  const int32_t run_groups = p->filter_width * p->input_depth / 4, groups = microaot_conv_window_size(p) / 4;
  const size_t row_step = (size_t)p->dilation_height * (size_t)p->input_width * (size_t)p->input_depth;
  const uint32_t* pair = block;
  const uint32_t* next = block + 4 * (size_t)groups;
  int32_t fy;
  if (tap == NULL) {
    microaot_conv_window(p, image, oy, ox, gathered);
    microaot_palette_dot_span(pair, next, gathered, groups, acc);
    return;
  }
  for (fy = 0; fy < p->filter_height; ++fy, tap += row_step, pair += 4 * run_groups, next += 4 * run_groups) {
    microaot_palette_dot_span(pair, next, tap, run_groups, acc);
  }
}

/* One quad's `count` channels of every output pixel (output: the quad's first channel of pixel 0) from the block;
 * inlined twice, for whole quads (count 4, unrolled steps) and a last partial one. An inner pixel (rows inside the
 * image, columns within [first, last]) reads its filter rows in place when they are runs of whole groups. */
ALWAYS_INLINE void quad_pixels(const conv_params* p, const int8_t* input, const uint32_t* block, int8_t* gathered,
                               const int32_t* step, int32_t count, int8_t* output) {
  const int32_t run = p->filter_width * p->input_depth;
  const int runs = p->dilation_width == 1 && run % 4 == 0 && run / 4 >= MIN_RUN_GROUPS;
  const size_t depth = (size_t)p->input_depth, image_size = (size_t)p->input_height * (size_t)p->input_width * depth;
  const size_t pixel_step = (size_t)p->stride_width * depth;
  int32_t b, oy, ox, first, last;
  inner_columns(p, &first, &last);
  for (b = 0; b < p->batches; ++b) {
    const int8_t* const image = input + (size_t)b * image_size;
    for (oy = 0; oy < p->output_height; ++oy) {
      const int32_t y = oy * p->stride_height - p->pad_height;
      const int inner_row = runs && y >= 0 && y + (p->filter_height - 1) * p->dilation_height < p->input_height;
      /* the first tap of column ox's window, for the inner columns */
      const int8_t* tap = inner_row && first <= last
                              ? image + ((size_t)y * (size_t)p->input_width +
                                         (size_t)(first * p->stride_width - p->pad_width)) * depth
                              : NULL;
      for (ox = 0; ox < p->output_width; ++ox, output += p->output_depth) {
        const int inner = tap != NULL && ox >= first && ox <= last;
        int32_t acc[4];
        if (count == 4) {
          microaot_palette_quad_start4(step, acc);
        } else {
          microaot_palette_quad_start(step, count, acc);
        }
        pixel_dot(p, image, oy, ox, inner ? tap : NULL, block, gathered, acc);
        if (inner) tap += pixel_step;
        if (count == 4) {
          microaot_palette_quad_store4(acc, step, output);
        } else {
          microaot_palette_quad_store(acc, step, count, output);
        }
      }
    }
  }
}

microaot_status microaot_conv_2d_s8_packed_kxk_palette(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                       const uint8_t* indices, const int8_t* table,
                                                       const int32_t* requant, int8_t* output, void* scratch) {
  const int32_t units = params->output_depth, window = microaot_conv_window_size(params);
  uint32_t* const block = (uint32_t*)scratch;
  int8_t* const gathered = (int8_t*)scratch + MICROAOT_PACKED_PALETTE_BLOCK_BYTES(window);
  int bits;
  int32_t u;
  if (indices == NULL || table == NULL || requant == NULL || block == NULL) return MICROAOT_STATUS_NULL_POINTER;
  bits = microaot_palette_bits(indices);
  if (bits == 0 || !MICROAOT_PACKED_KXK_PALETTE_FITS(window) || params->filter_depth != params->input_depth) {
    return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  }
  for (u = 0; u < units; u += 4) {
    const int32_t* const step = requant + (u / 2) * MICROAOT_PACKED_STEP_WORDS;
    microaot_palette_decode_quad(indices, bits, table, (size_t)u, units - u < 4 ? units - u : 4, window, block);
    if (units - u >= 4) {
      quad_pixels(params, input, block, gathered, step, 4, output + u);
    } else {
      quad_pixels(params, input, block, gathered, step, units - u, output + u);
    }
  }
  if (params->activation_min != -128 || params->activation_max != 127) {
    microaot_packed_clamp_row(output, params->batches * params->output_height * params->output_width * units,
                              params->activation_min, params->activation_max);
  }
  return MICROAOT_STATUS_OK;
}
