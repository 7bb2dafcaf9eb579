/* int8 DEPTHWISE_CONV_2D over a layer's channel-group words (microaot/internal/depthwise_group_words.h), which
 * the compiler writes for the DSP kernels dsp/depthwise_conv_2d_s8_w16.c (widened) and dsp/depthwise_conv_2d_s8_w8.c
 * (compact): without the DSP extension, the reference arithmetic on the values the words hold (each weight and
 * bias halved back, each channel's multiplier and shift), tap by tap over a window's in-image taps, bit-exact with
 * microaot_depthwise_conv_2d_s8. A layer outside microaot_fit_depthwise_widened_palette is refused with a status,
 * as the DSP build refuses it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/fixedpoint.h"
#include "microaot/internal/depthwise_group_words.h"
#include "microaot/internal/window.h"
#include "microaot/kernels/conv.h"
#include "microaot/status.h"

/* Lane `high` (0 low, 1 high) of word `w` as int16, halved back to the weight. */
static int32_t dww_weight(int32_t w, int high) {
  const uint32_t u = (uint32_t)w >> (high ? 16 : 0);
  return (int32_t)(int16_t)(uint16_t)(u & 0xffffu) / 2;
}

/* Channel k's (0..3) constants of a group's words: its bias, tap t's weight, multiplier and shift. */
typedef struct {
  int32_t bias, multiplier, shift;
  int32_t weights[9];
} dww_channel;

static dww_channel dww_channel_of(const int32_t* words, int32_t c, int compact) {
  const int32_t k = c % 4;
  dww_channel ch;
  int32_t t;
  if (compact) {
    const int32_t* g = words + (size_t)(c / 4) * MICROAOT_DW_COMPACT_WORDS;
    ch.bias = g[MICROAOT_DW_COMPACT_BIAS + k] / 2;
    ch.multiplier = g[MICROAOT_DW_COMPACT_STEP + 2 * k];
    ch.shift = -g[MICROAOT_DW_COMPACT_STEP + 2 * k + 1];
    for (t = 0; t < 9; ++t) ch.weights[t] = (int8_t)(uint8_t)((uint32_t)g[MICROAOT_DW_COMPACT_TAPS + t] >> (8 * k));
  } else { /* lanes (0, 2) then (1, 3), doubled */
    const int32_t* g = words + (size_t)(c / 4) * MICROAOT_DW_GROUP_WORDS;
    ch.bias = g[MICROAOT_DW_GROUP_BIAS + k] / 2;
    ch.multiplier = g[MICROAOT_DW_GROUP_STEP + 3 * k];
    ch.shift = -g[MICROAOT_DW_GROUP_STEP + 3 * k + 2];
    for (t = 0; t < 9; ++t) ch.weights[t] = dww_weight(g[MICROAOT_DW_GROUP_WEIGHTS + 2 * t + (k & 1)], k >> 1);
  }
  return ch;
}

/* Channel c of output pixel (image, oy, ox). */
static int8_t dww_value(const microaot_depthwise_conv_2d_params_q* p, const int8_t* image, const dww_channel* ch,
                        int32_t oy, int32_t ox, int32_t c) {
  const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, 3, 1, p->input_height);
  const microaot_window x = microaot_window_of(ox, p->stride_width, p->pad_width, 3, 1, p->input_width);
  int32_t fy, fx, sum = ch->bias, out;
  for (fy = y.begin; fy < y.end; ++fy) {
    for (fx = x.begin; fx < x.end; ++fx) {
      const size_t at = ((size_t)(y.origin + fy) * (size_t)p->input_width + (size_t)(x.origin + fx)) *
                        (size_t)p->input_depth + (size_t)c;
      sum += (image[at] + p->input_offset) * ch->weights[fy * 3 + fx];
    }
  }
  out = microaot_multiply_by_quantized_multiplier(sum, ch->multiplier, ch->shift) + p->output_offset;
  out = out < p->activation_min ? p->activation_min : out;
  return (int8_t)(out > p->activation_max ? p->activation_max : out);
}

/* Output row `row` (counted over all batches) into `out`. */
static void dww_row(const microaot_depthwise_conv_2d_params_q* p, const int8_t* input, const int32_t* words,
                    int32_t row, int8_t* out, int compact) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const int8_t* image = input + (size_t)(row / p->output_height) * image_size;
  int32_t ox, c;
  for (ox = 0; ox < p->output_width; ++ox) {
    for (c = 0; c < p->output_depth; ++c) {
      const dww_channel ch = dww_channel_of(words, c, compact);
      *out++ = dww_value(p, image, &ch, row % p->output_height, ox, c);
    }
  }
}

microaot_status microaot_depthwise_conv_2d_s8_words_portable(const microaot_depthwise_conv_2d_params_q* p,
                                                             const int8_t* input, const int32_t* words,
                                                             int8_t* output, int8_t* scratch, int compact) {
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  int32_t row;
  if (words == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (!microaot_fit_depthwise_widened_palette(p)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (row = 0; row < p->batches * p->output_height; ++row) {
    dww_row(p, input, words, row, scratch != NULL ? scratch : output + (size_t)row * row_size, compact);
    if (scratch != NULL) memcpy(output + (size_t)row * row_size, scratch, row_size);
  }
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_depthwise_conv_2d_s8_w16(const microaot_depthwise_conv_2d_params_q* params,
                                                  const int8_t* input, const int32_t* groups, int8_t* output) {
  return microaot_depthwise_conv_2d_s8_words_portable(params, input, groups, output, NULL, 0);
}

/* Each row into the scratch row first, then to its place, as the portable template's overlap variant. */
microaot_status microaot_depthwise_conv_2d_s8_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                          const int8_t* input, const int32_t* groups,
                                                          int8_t* output, void* scratch) {
  if (scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  return microaot_depthwise_conv_2d_s8_words_portable(params, input, groups, output, (int8_t*)scratch, 0);
}
