/* The palettised int8 convolution template (microaot/internal/palette.h): CONV_2D and DEPTHWISE_CONV_2D whose
 * filters are packed indices and per-channel tables. The including file defines MICROAOT_CONV (conv_2d,
 * depthwise_conv_2d), MICROAOT_FN and MICROAOT_FN_OVERLAP. Row by row, each output channel's filter is decoded
 * once into the scratch (its taps in the OHWI order of one channel, also for depthwise) and then computes the
 * channel across the row with conv.h's own accumulation, so the sums are the unpalettised kernel's, bit for bit. */
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV_ACCUMULATE_ONLY
/* A decoded filter holds one channel's taps contiguously: TAP_DEPTH elements per tap. */
#define MICROAOT_CONV_FILTER_TAP_STRIDE(p) ((size_t)MICROAOT_CONV_OP(TAP_DEPTH, p))
#include "microaot/internal/templates/conv.h"
#include "microaot/internal/palette.h"
#include "microaot/status.h"

/* One output channel's filter elements (a row of the indices). */
#define MICROAOT_PALETTE_ROW_conv_2d(p) MICROAOT_CONV_FILTER_STEP_conv_2d(p)
#define MICROAOT_PALETTE_ROW_depthwise_conv_2d(p) ((size_t)(p)->filter_height * (size_t)(p)->filter_width)
#define MICROAOT_PALETTE_ROW(p) MICROAOT_CAT(MICROAOT_PALETTE_ROW_, MICROAOT_CONV)(p)

/* Output row oy of batch b, channel by channel, into dst (the output row or the overlap variant's row). */
static void palette_conv_row(const MICROAOT_CONV_PARAMS* p, const int8_t* input_batch, const uint8_t* indices,
                             int bits, const int8_t* table, const int32_t* bias, const microaot_window* y,
                             int8_t* filter, int8_t* dst) {
  const int32_t group = MICROAOT_CONV_OP(GROUP, p);
  const size_t taps = MICROAOT_PALETTE_ROW(p);
  int32_t oc, ox;
  for (oc = 0; oc < p->output_depth; ++oc) {
    const int8_t* input_c0 = input_batch + (oc / group) * MICROAOT_CONV_OP(TAP_DEPTH, p);
    microaot_palette_decode(indices, bits, table, (size_t)oc, taps, filter);
    for (ox = 0; ox < p->output_width; ++ox) {
      const microaot_window x =
          microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
      /* Also without a bias a 0 is added, as the reference does. */
      const int32_t acc = conv_accumulate(p, input_c0, filter, y, &x) + (bias != NULL ? bias[oc] : 0);
      dst[(size_t)ox * (size_t)p->output_depth + (size_t)oc] = MICROAOT_OUTPUT(p, acc, oc);
    }
  }
}

/* Every output row in order; the overlap variant builds each in row_scratch, stored after the last input read
 * of its row. scratch: the decoded filter. */
static microaot_status palette_conv_rows(const MICROAOT_CONV_PARAMS* p, const int8_t* input, const uint8_t* indices,
                                         const int8_t* table, const int32_t* bias, int8_t* output, int8_t* filter,
                                         int8_t* row_scratch) {
  const size_t input_batch_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_size = (size_t)p->output_width * (size_t)p->output_depth;
  int bits;
  int32_t b, oy;
  if (indices == NULL || table == NULL || filter == NULL) return MICROAOT_STATUS_NULL_POINTER;
  bits = microaot_palette_bits(indices);
  if (bits == 0) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (b = 0; b < p->batches; ++b) {
    for (oy = 0; oy < p->output_height; ++oy) {
      const microaot_window y = microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height,
                                                   p->dilation_height, p->input_height);
      int8_t* row = output + (size_t)(b * p->output_height + oy) * row_size;
      palette_conv_row(p, input + (size_t)b * input_batch_size, indices, bits, table, bias, &y, filter,
                       row_scratch != NULL ? row_scratch : row);
      if (row_scratch != NULL) memcpy(row, row_scratch, row_size);
    }
  }
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_FN(const MICROAOT_CONV_PARAMS* params, const int8_t* input, const uint8_t* indices,
                            const int8_t* table, const int32_t* bias, int8_t* output, void* scratch) {
  return palette_conv_rows(params, input, indices, table, bias, output, (int8_t*)scratch, NULL);
}

/* The scratch: the decoded filter, then the output row. */
microaot_status MICROAOT_FN_OVERLAP(const MICROAOT_CONV_PARAMS* params, const int8_t* input, const uint8_t* indices,
                                    const int8_t* table, const int32_t* bias, int8_t* output, void* scratch) {
  if (scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  return palette_conv_rows(params, input, indices, table, bias, output, (int8_t*)scratch,
                           (int8_t*)scratch + MICROAOT_PALETTE_ROW(params));
}
