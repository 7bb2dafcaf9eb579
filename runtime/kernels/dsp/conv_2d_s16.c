/* int16 CONV_2D (16x8) with the DSP extension, bit-exact with the portable kernel. Output pixels two at a time
 * against output channels two at a time: each pixel's window, in filter order (the input pixel itself for a 1x1
 * filter without padding, else gathered, microaot/internal/conv_window.h, taps outside the image 0 as the
 * symmetric int16 input's padding is), put in SMLAD's lane order into a small stack buffer and multiplied
 * against the int8 filters widened word by word (microaot/internal/dsp_dot_s16.h: int32 chunk sums into int64,
 * then the bias and TFLite's 16x8 requantization as the reference). A window longer than the buffer runs in
 * pieces (pixel_pair_in_pieces). Grouped convolutions take the portable code (network_info.txt says so:
 * compiler/kernels/isa_fallbacks.cpp). */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/dsp_s16.h"
#include "microaot/internal/conv_window.h"
#include "microaot/internal/dsp_dot_s16.h"
#include "microaot/kernels/conv.h"

/* The portable kernels, for the shapes handled below, under their own names. */
void microaot_conv_2d_s16_portable(const microaot_conv_2d_params_q* params, const int16_t* input, const int8_t* filter,
                                   const int64_t* bias, int16_t* output);
void microaot_conv_2d_s16_overlap_portable(const microaot_conv_2d_params_q* params, const int16_t* input,
                                           const int8_t* filter, const int64_t* bias, int16_t* output, void* scratch);
#define MICROAOT_DTYPE s16
#define MICROAOT_CONV conv_2d
#define MICROAOT_FN microaot_conv_2d_s16_portable
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s16_overlap_portable
#include "microaot/internal/templates/conv.h"

typedef microaot_conv_2d_params_q conv_params;

static int is_pointwise(const conv_params* p) {
  return p->filter_height == 1 && p->filter_width == 1 && p->pad_height == 0 && p->pad_width == 0;
}

/* Output pixel (oy, ox)'s window in lane order into `column` (words: the dot's LDRDs). */
static void pixel_column(const conv_params* p, const int16_t* image, int32_t oy, int32_t ox, uint32_t* column) {
  const int32_t n = microaot_conv_window_size(p);
  if (is_pointwise(p)) {
    const size_t in_y = (size_t)(oy * p->stride_height), in_x = (size_t)(ox * p->stride_width);
    microaot_dsp_lanes_s16(image + (in_y * (size_t)p->input_width + in_x) * (size_t)p->input_depth, n, column);
    return;
  }
  microaot_conv_window_elems(p, image, oy, ox, column, sizeof(int16_t), 0);
  microaot_dsp_lanes_s16((const int16_t*)(const void*)column, n, column);
}

/* Channel c's output step (microaot/internal/dsp_dot_s16.h: the template's arithmetic). */
static microaot_dsp_s16_channel channel_of(const conv_params* p, const int64_t* bias, int32_t c) {
  return microaot_dsp_s16_channel_of(bias, p->output_multiplier[c], p->output_shift[c], p->output_offset,
                                     p->activation_min, p->activation_max, c);
}

/* Channels oc and `second` (oc + 1, or oc for an odd last channel) of the two pixels from their sums acc and the
 * channels' steps (out1 NULL: the second pixel is not stored). */
MICROAOT_DSP_S16_LOOP void pair_outputs(const microaot_dsp_s16_channel* first_step,
                                        const microaot_dsp_s16_channel* second_step, int32_t oc, int32_t second,
                                        const int64_t acc[4], int16_t* out0, int16_t* out1) {
  out0[oc] = microaot_dsp_s16_output(first_step, acc[0]);
  out0[second] = microaot_dsp_s16_output(second_step, acc[1]);
  if (out1 != NULL) {
    out1[oc] = microaot_dsp_s16_output(first_step, acc[2]);
    out1[second] = microaot_dsp_s16_output(second_step, acc[3]);
  }
}

/* Every output channel of the two pixels' columns, columns[0] and columns[1] (out1 NULL: the second is a copy
 * of the first, not stored; the columns a constant distance apart, which the dot's loads take as an offset). */
static void pixel_pair(const conv_params* p, const uint32_t (*columns)[MICROAOT_DSP_S16_COLUMN_WORDS],
                       const int8_t* filter, const int64_t* bias, int16_t* out0, int16_t* out1) {
  const int32_t n = microaot_conv_window_size(p);
  int32_t oc;
  for (oc = 0; oc < p->output_depth; oc += 2) {
    const int32_t second = oc + 1 < p->output_depth ? oc + 1 : oc; /* an odd last channel pairs with itself */
    const microaot_dsp_s16_channel first_step = channel_of(p, bias, oc), second_step = channel_of(p, bias, second);
    int64_t acc[4] = {0, 0, 0, 0};
    microaot_dsp_dot_2x2_s16_long(columns[0], columns[1], filter + (size_t)oc * (size_t)n,
                                  filter + (size_t)second * (size_t)n, n, acc);
    pair_outputs(&first_step, &second_step, oc, second, acc, out0, out1);
  }
}

/* Elements [begin, begin + n) of output pixel (oy, ox)'s window into `column`, in lane order. */
static void piece_column(const conv_params* p, const int16_t* image, int32_t oy, int32_t ox, int32_t begin,
                         int32_t n, uint32_t* column) {
  if (is_pointwise(p)) {
    const size_t in_y = (size_t)(oy * p->stride_height), in_x = (size_t)(ox * p->stride_width);
    microaot_dsp_lanes_s16(image + (in_y * (size_t)p->input_width + in_x) * (size_t)p->input_depth + begin, n,
                           column);
    return;
  }
  microaot_conv_window_part_elems(p, image, oy, ox, begin, n, column, sizeof(int16_t), 0);
  microaot_dsp_lanes_s16((const int16_t*)(const void*)column, n, column);
}

/* pixel_pair for a window longer than the columns: in pieces of MICROAOT_DSP_S16_PIECE elements (an int32 sum
 * each), both pixels' pieces in the columns' buffer, against MICROAOT_DSP_S16_BLOCK channels at a time whose int64
 * sums lie there too (the pieces gathered again for each block: a few instructions per element against 32 MACs).
 * Apart, so that the short windows' loops keep their registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void pixel_pair_in_pieces(const conv_params* p, const int16_t* image, int32_t oy, int32_t ox, int pair,
                                 microaot_dsp_s16_pieces* s, const int8_t* filter, const int64_t* bias,
                                 int16_t* out0, int16_t* out1) {
  const int32_t n = microaot_conv_window_size(p), depth = p->output_depth;
  int32_t block, begin, oc;
  for (block = 0; block < depth; block += MICROAOT_DSP_S16_BLOCK) {
    const int32_t end = depth - block < MICROAOT_DSP_S16_BLOCK ? depth : block + MICROAOT_DSP_S16_BLOCK;
    memset(s->sums, 0, sizeof s->sums);
    for (begin = 0; begin < n; begin += MICROAOT_DSP_S16_PIECE) {
      const int32_t length = n - begin < MICROAOT_DSP_S16_PIECE ? n - begin : MICROAOT_DSP_S16_PIECE;
      piece_column(p, image, oy, ox, begin, length, s->first);
      if (pair) {
        piece_column(p, image, oy, ox + 1, begin, length, s->second);
      } else { /* a lone last pixel: a copy */
        memcpy(s->second, s->first, (size_t)(length + 1) / 2 * sizeof(uint32_t));
      }
      for (oc = block; oc < end; oc += 2) {
        const int32_t second = oc + 1 < depth ? oc + 1 : oc;
        microaot_dsp_dot_2x2_s16_long(s->first, s->second, filter + (size_t)oc * (size_t)n + begin,
                                      filter + (size_t)second * (size_t)n + begin, length, s->sums[(oc - block) / 2]);
      }
    }
    for (oc = block; oc < end; oc += 2) {
      const int32_t second = oc + 1 < depth ? oc + 1 : oc;
      const microaot_dsp_s16_channel first_step = channel_of(p, bias, oc), second_step = channel_of(p, bias, second);
      pair_outputs(&first_step, &second_step, oc, second, s->sums[(oc - block) / 2], out0, out1);
    }
  }
}

/* Every output row (over all batches), each written to `dst` and, when dst is a scratch row, copied to its
 * place after its last input read. */
static void conv_rows_dsp(const conv_params* p, const int16_t* input, const int8_t* filter, const int64_t* bias,
                          int16_t* output, int16_t* row_scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth, row_size = (size_t)p->output_width * depth;
  const int whole = microaot_conv_window_size(p) <= MICROAOT_DSP_S16_COLUMN;
  union {
    uint32_t columns[2][MICROAOT_DSP_S16_COLUMN_WORDS]; /* a whole window each */
    microaot_dsp_s16_pieces pieces;                     /* a long window's */
  } buffer;
  int32_t row, ox;
  for (row = 0; row < p->batches * p->output_height; ++row) {
    const int32_t oy = row % p->output_height;
    const int16_t* image = input + (size_t)(row / p->output_height) * image_size;
    int16_t* out = output + (size_t)row * row_size;
    int16_t* dst = row_scratch != NULL ? row_scratch : out;
    for (ox = 0; ox < p->output_width; ox += 2) {
      const int pair = ox + 1 < p->output_width;
      int16_t* const out0 = dst + (size_t)ox * depth;
      int16_t* const out1 = pair ? out0 + depth : NULL;
      if (!whole) {
        pixel_pair_in_pieces(p, image, oy, ox, pair, &buffer.pieces, filter, bias, out0, out1);
        continue;
      }
      pixel_column(p, image, oy, ox, buffer.columns[0]);
      if (pair) {
        pixel_column(p, image, oy, ox + 1, buffer.columns[1]);
      } else { /* a lone last pixel: a copy */
        memcpy(buffer.columns[1], buffer.columns[0], (size_t)(microaot_conv_window_size(p) + 1) / 2 * sizeof(uint32_t));
      }
      pixel_pair(p, (const uint32_t(*)[MICROAOT_DSP_S16_COLUMN_WORDS])buffer.columns, filter, bias, out0, out1);
    }
    if (row_scratch != NULL) memcpy(out, row_scratch, row_size * sizeof(int16_t));
  }
}

void microaot_conv_2d_s16(const microaot_conv_2d_params_q* params, const int16_t* input, const int8_t* filter,
                          const int64_t* bias, int16_t* output) {
  if (!microaot_fit_conv_2d_s16_dsp(params)) {
    microaot_conv_2d_s16_portable(params, input, filter, bias, output);
    return;
  }
  conv_rows_dsp(params, input, filter, bias, output, NULL);
}

void microaot_conv_2d_s16_overlap(const microaot_conv_2d_params_q* params, const int16_t* input, const int8_t* filter,
                                  const int64_t* bias, int16_t* output, void* scratch) {
  if (!microaot_fit_conv_2d_s16_dsp(params)) {
    microaot_conv_2d_s16_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  conv_rows_dsp(params, input, filter, bias, output, (int16_t*)scratch);
}
