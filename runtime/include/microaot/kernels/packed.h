/* Matrix-product kernels over weights the compiler laid out for the DSP inner loop (compiler/ops/packed_weights.h,
 * microaot/internal/packed_dot.h has the layout): a 1x1 CONV_2D without padding and an int8 FULLY_CONNECTED whose
 * weight zero point is 0. The compiler picks them for a target with the DSP extension. `requant` holds the
 * output step the compiler proved exact (MICROAOT_PACKED_STEP_WORDS per output channel pair,
 * microaot/packed_matmul.h; a layer outside that proof takes the unpacked kernel), whose words hold the bias
 * with the input zero point folded in (bias[u] + input_offset * the sum of unit u's weights, so the params'
 * input_offset is 0), which is exact because no padding is read; the params' output_multiplier and
 * output_shift are NULL. Bit-exact with microaot_conv_2d_s8 / _fully_connected_s8 on the original weights and
 * bias. The k x k kernel makes each output pixel's window such a row. Without the table (NULL: a graph blob
 * cannot give that, its loader requires the argument, but a direct call can) a kernel returns
 * MICROAOT_STATUS_NULL_POINTER and writes nothing; else MICROAOT_STATUS_OK. The C definitions of
 * microaot/internal/dsp.h make them run on any target. Each kernel has a _w16 twin, the same over the int16 form of the
 * packed words (microaot/packed_matmul.h): twice the flash, no widening of the weights in the inner loop
 * (--optimize speed). */
#ifndef MICROAOT_KERNELS_PACKED_H
#define MICROAOT_KERNELS_PACKED_H

#include <stdint.h>

#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"
#include "microaot/kernels/transpose_conv.h"
#include "microaot/internal/palette.h"
#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The reduction in chunks: a row (a pixel's depth, a window, a FULLY_CONNECTED's input) longer than
 * MICROAOT_PACKED_CHUNK elements is reduced in chunks of MICROAOT_PACKED_CHUNK_LENGTH(n) elements (a multiple of
 * four, the last chunk shorter), its sums kept in int32 per row and unit between chunks (MICROAOT_PACKED_SUMS_BYTES),
 * so that the scratch stays bounded however long the row; the weights are laid out chunk after chunk, each chunk's
 * words as those of a row of its length (compiler/ops/packed_weights.h). A shorter row is one chunk. */
#define MICROAOT_PACKED_CHUNK 640
#define MICROAOT_PACKED_CHUNKS(n) ((n) > MICROAOT_PACKED_CHUNK ? ((n) + MICROAOT_PACKED_CHUNK - 1) / MICROAOT_PACKED_CHUNK : 1)
#define MICROAOT_PACKED_CHUNK_LENGTH(n) (4 * (((n) + 4 * MICROAOT_PACKED_CHUNKS(n) - 1) / (4 * MICROAOT_PACKED_CHUNKS(n))))
/* The sums between chunks: four words per unit pair (two rows' sums of both units), none for one chunk. */
#define MICROAOT_PACKED_SUMS_BYTES(n, units) ((n) > MICROAOT_PACKED_CHUNK ? 16 * (((units) + 1) / 2) : 0)
/* The widened rows of one chunk of n elements (word aligned): two rows of n int8 widened to int16, zero-padded
 * to groups of four elements; the packed TRANSPOSE_CONV's also hold a window gathered before it is widened (int8,
 * whole words). */
#define MICROAOT_PACKED_CHUNK_ROWS_BYTES(n) (16 * (((n) + 3) / 4))
#define MICROAOT_PACKED_CHUNK_WINDOWS_BYTES(n) (20 * (((n) + 3) / 4))
/* The scratch every packed kernel takes: a chunk's rows, then the sums of `units` units between chunks. The
 * compiler plans it in the arena per layer. */
#define MICROAOT_PACKED_ROWS_BYTES(depth, units) \
  (MICROAOT_PACKED_CHUNK_ROWS_BYTES(MICROAOT_PACKED_CHUNK_LENGTH(depth)) + MICROAOT_PACKED_SUMS_BYTES(depth, units))
/* The k x k kernel runs output pixels three at a time (microaot_packed_rows3): its chunk holds three widened rows,
 * and with them a gathered window; past one chunk, the sums of three rows: six words per unit pair. */
#define MICROAOT_PACKED_CHUNK_ROWS3_BYTES(n) (24 * (((n) + 3) / 4))
#define MICROAOT_PACKED_CHUNK_WINDOWS3_BYTES(n) (28 * (((n) + 3) / 4))
#define MICROAOT_PACKED_SUMS3_BYTES(n, units) ((n) > MICROAOT_PACKED_CHUNK ? 24 * (((units) + 1) / 2) : 0)
/* Whether the k x k kernel widens the windows that lie inside the image straight from it: their filter rows' runs
 * of `run` (filter_width * input_depth) bytes are whole groups, at least four (a widening call per shorter run
 * costs more than the gather's copy: KWS's 10x4 stem over one channel, runs of 4 bytes, is 2% slower straight).
 * Where it does not, a window of one chunk is always gathered, three pixels' at a time into three windows. */
#define MICROAOT_PACKED_DIRECT_RUNS(run) ((run) % 4 == 0 && (run) >= 16)
#define MICROAOT_PACKED_WINDOWS3_BYTES(n) (36 * (((n) + 3) / 4))
/* The k x k kernel's: a chunk's rows and gathered window (one chunk of gathered windows: three), then the sums;
 * for pixel windows (a 1x1 layer or a FULLY_CONNECTED it takes), a chunk's rows, then the sums. */
#define MICROAOT_PACKED_WINDOWS_BYTES(window, run, units)                                                     \
  ((window) > MICROAOT_PACKED_CHUNK                                                                            \
       ? MICROAOT_PACKED_CHUNK_WINDOWS3_BYTES(MICROAOT_PACKED_CHUNK_LENGTH(window)) +                          \
             MICROAOT_PACKED_SUMS3_BYTES(window, units)                                                        \
       : MICROAOT_PACKED_DIRECT_RUNS(run) ? MICROAOT_PACKED_CHUNK_WINDOWS3_BYTES(window)                       \
                                          : MICROAOT_PACKED_WINDOWS3_BYTES(window))
#define MICROAOT_PACKED_PIXEL_ROWS_BYTES(depth, units) \
  (MICROAOT_PACKED_CHUNK_ROWS3_BYTES(MICROAOT_PACKED_CHUNK_LENGTH(depth)) + MICROAOT_PACKED_SUMS3_BYTES(depth, units))

/* A 1x1 filter without padding: each window is one input pixel, read in place (no window gathered). */
static inline int microaot_packed_pixel_windows(const microaot_conv_2d_params_q* p) {
  return p->filter_height == 1 && p->filter_width == 1 && p->pad_height == 0 && p->pad_width == 0;
}
/* The k x k kernel's padded rows: where windows are gathered (their row runs not MICROAOT_PACKED_DIRECT_RUNS, no
 * column dilation: few channels) and reach past the left or right edge, each output row first copies its filter
 * rows' image rows between their padding (the input zero point) over the columns its windows span; every window
 * is then gathered from them without a bounds test (an edge window cost several times an inside one, and narrow
 * images are mostly edges). Taken while those rows fit one chunk (MICROAOT_PACKED_CHUNK bytes: the scratch stays
 * within what a window of one chunk may take). One row's bytes: */
static inline int32_t microaot_packed_padded_row_bytes(const microaot_conv_2d_params_q* p) {
  return ((p->output_width - 1) * p->stride_width + p->filter_width) * p->input_depth;
}
/* The padded rows' bytes, 0 where the layer takes none. */
static inline int32_t microaot_packed_padded_rows_bytes(const microaot_conv_2d_params_q* p) {
  const int32_t span = microaot_packed_padded_row_bytes(p);
  const int gathered = !MICROAOT_PACKED_DIRECT_RUNS(p->filter_width * p->input_depth) && p->dilation_width == 1 &&
                       !microaot_packed_pixel_windows(p);
  const int edges = p->pad_width > 0 || (p->output_width - 1) * p->stride_width + p->filter_width > p->input_width;
  if (!gathered || !edges || p->filter_height <= 0 || span <= 0 || span > MICROAOT_PACKED_CHUNK / p->filter_height) {
    return 0;
  }
  return 4 * ((p->filter_height * span + 3) / 4);
}
/* The k x k kernel's scratch (plain flavor): the windows', then the padded rows. */
static inline int32_t microaot_packed_kxk_bytes(const microaot_conv_2d_params_q* p) {
  const int32_t run = p->filter_width * p->input_depth;
  return MICROAOT_PACKED_WINDOWS_BYTES(p->filter_height * run, run, p->output_depth) +
         microaot_packed_padded_rows_bytes(p);
}

/* params: a 1x1 filter, no padding, filter_depth = input_depth; filter: the packed words;
 * scratch: MICROAOT_PACKED_ROWS_BYTES(input_depth, output_depth). */
microaot_status microaot_conv_2d_s8_packed(const microaot_conv_2d_params_q* params, const int8_t* input,
                                           const int32_t* filter, const int32_t* requant, int8_t* output,
                                           void* scratch);
/* The overlap flavor, as microaot_conv_2d_s8_overlap: scratch holds the widened rows, then one output row. */
microaot_status microaot_conv_2d_s8_packed_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                   const int32_t* filter, const int32_t* requant, int8_t* output,
                                                   void* scratch);
/* k x k (any window, stride, dilation and padding; filter_depth = input_depth) as a matrix product over each
 * output pixel's window, gathered in filter order with padding taps as the input zero point: params as the
 * model's (input_offset is the padding's value, -zero point; the table's bias already holds its products);
 * filter: the packed words of the filter_height * filter_width * input_depth elements of each output channel;
 * scratch: microaot_packed_kxk_bytes(params), the overlap flavor's output row after it. A 1x1 filter without
 * padding runs as microaot_conv_2d_s8_packed does, with its params (input_offset unread) and output row, in
 * MICROAOT_PACKED_PIXEL_ROWS_BYTES(input_depth, output_depth) of scratch (the compiler sends such layers here when
 * the model links this kernel for its k x k layers). */
microaot_status microaot_conv_2d_s8_packed_kxk(const microaot_conv_2d_params_q* params, const int8_t* input,
                                               const int32_t* filter, const int32_t* requant, int8_t* output,
                                               void* scratch);
microaot_status microaot_conv_2d_s8_packed_kxk_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                       const int32_t* filter, const int32_t* requant, int8_t* output,
                                                       void* scratch);
/* params: filter_offset 0; weights: the packed words; scratch: MICROAOT_PACKED_ROWS_BYTES(input_depth, output_depth). */
microaot_status microaot_fully_connected_s8_packed(const microaot_fully_connected_params_q* params,
                                                   const int8_t* input, const int32_t* weights,
                                                   const int32_t* requant, int8_t* output, void* scratch);

/* A 1x1 CONV_2D (no padding, filter_depth = input_depth) over palettised weights (microaot/internal/palette.h:
 * indices, tables) with the output step's table `requant` as the packed kernels', bit-exact with
 * microaot_conv_2d_s8 on the decoded weights: four output channels at a time decoded into the scratch in the
 * int16 layout of the _w16 loops (microaot/internal/palette_dot.h), then every output pixel read in place
 * against them. Takes depths MICROAOT_PACKED_PALETTE_FITS (whole words, a bounded block), else returns
 * MICROAOT_STATUS_VALUE_OUT_OF_RANGE, as for a corrupt index header; scratch:
 * MICROAOT_PACKED_PALETTE_BLOCK_BYTES(input_depth). */
#define MICROAOT_PACKED_PALETTE_MAX_DEPTH 256
#define MICROAOT_PACKED_PALETTE_FITS(depth) \
  ((depth) > 0 && (depth) % 4 == 0 && (depth) <= MICROAOT_PACKED_PALETTE_MAX_DEPTH)
#define MICROAOT_PACKED_PALETTE_BLOCK_BYTES(depth) (8 * (depth))
microaot_status microaot_conv_2d_s8_packed_palette(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                   const uint8_t* indices, const int8_t* table,
                                                   const int32_t* requant, int8_t* output, void* scratch);
/* The overlap flavors of the DSP palette kernels store their output a chunk of microaot_palette_chunk_rows rows at a
 * time from the scratch, after the plain flavor's own. */
static inline int32_t microaot_palette_overlap_rows(const microaot_conv_2d_params_q* p, int one_block) {
  return microaot_palette_chunk_rows(p->output_width, p->output_height, one_block);
}
static inline int32_t microaot_packed_palette_overlap_rows(const microaot_conv_2d_params_q* p) {
  return microaot_palette_overlap_rows(p, p->output_depth <= 4);
}
/* scratch: MICROAOT_PACKED_PALETTE_BLOCK_BYTES(input_depth), then microaot_packed_palette_overlap_rows output
 * rows. */
microaot_status microaot_conv_2d_s8_packed_palette_overlap(const microaot_conv_2d_params_q* params,
                                                           const int8_t* input, const uint8_t* indices,
                                                           const int8_t* table, const int32_t* requant,
                                                           int8_t* output, void* scratch);

/* A k x k CONV_2D (any window, stride, dilation and padding; filter_depth = input_depth) over palettised weights
 * with the k x k packed kernel's params and table (input_offset the padding's value; the _w16 form's table): a
 * block of MICROAOT_PACKED_KXK_PALETTE_UNITS(window, units) output channels decoded into the scratch as the _w16
 * kernel's weights, then output pixels' windows gathered and widened three at a time (as the k x k packed kernel's)
 * against the block through the _w16 row loops (three pixels against two channels). Takes windows
 * MICROAOT_PACKED_KXK_PALETTE_FITS (one chunk), else returns MICROAOT_STATUS_VALUE_OUT_OF_RANGE; scratch:
 * MICROAOT_PACKED_KXK_PALETTE_BYTES(window, units). */
#define MICROAOT_PACKED_KXK_PALETTE_MAX_WINDOW MICROAOT_PACKED_CHUNK
#define MICROAOT_PACKED_KXK_PALETTE_FITS(window) ((window) > 0 && (window) <= MICROAOT_PACKED_KXK_PALETTE_MAX_WINDOW)
/* The decoded block's bytes at most (its channels then as many as fit, in whole quads, at least one): the more
 * channels, the fewer times each window is gathered and widened. */
#define MICROAOT_PACKED_KXK_PALETTE_BLOCK_MAX 10240
/* One channel's decoded window: two int16 words per group of four elements. */
#define MICROAOT_PACKED_KXK_PALETTE_UNIT_BYTES(window) (8 * (((window) + 3) / 4))
/* The block's channels: as many as fit, balanced over the blocks (32 channels at 14 a block: 2 of 16, not
 * 12 + 12 + 8). */
static inline int32_t microaot_packed_kxk_palette_units(int32_t window, int32_t units) {
  const int32_t unit_bytes = window > 0 ? MICROAOT_PACKED_KXK_PALETTE_UNIT_BYTES(window) : 8;
  int32_t most = MICROAOT_PACKED_KXK_PALETTE_BLOCK_MAX / unit_bytes / 4 * 4, blocks;
  if (most < 4) most = 4;
  if (units < 1) units = 1;
  blocks = (units + most - 1) / most;
  return ((units + blocks - 1) / blocks + 3) / 4 * 4;
}
/* The block, the three widened windows and the gathered one (MICROAOT_PACKED_CHUNK_WINDOWS3_BYTES), then the
 * block's outputs of two pixels. */
#define MICROAOT_PACKED_KXK_PALETTE_BYTES(window, units)                                                   \
  ((MICROAOT_PACKED_KXK_PALETTE_UNIT_BYTES(window) + 2) * microaot_packed_kxk_palette_units(window, units) + \
   MICROAOT_PACKED_CHUNK_WINDOWS3_BYTES(window))
microaot_status microaot_conv_2d_s8_packed_kxk_palette(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                       const uint8_t* indices, const int8_t* table,
                                                       const int32_t* requant, int8_t* output, void* scratch);
static inline int32_t microaot_packed_kxk_palette_overlap_rows(const microaot_conv_2d_params_q* p) {
  const int32_t window = p->filter_height * p->filter_width * p->input_depth;
  return microaot_palette_overlap_rows(p, microaot_packed_kxk_palette_units(window, p->output_depth) >= p->output_depth);
}
/* scratch: MICROAOT_PACKED_KXK_PALETTE_BYTES(window, units), then microaot_packed_kxk_palette_overlap_rows output
 * rows. */
microaot_status microaot_conv_2d_s8_packed_kxk_palette_overlap(const microaot_conv_2d_params_q* params,
                                                               const int8_t* input, const uint8_t* indices,
                                                               const int8_t* table, const int32_t* requant,
                                                               int8_t* output, void* scratch);

/* A FULLY_CONNECTED over 4-bit palettised weights (microaot/internal/palette.h: indices, per-channel or shared
 * tables) with the params and optional bias of microaot_fully_connected_s8_palette, bit-exact with
 * microaot_fully_connected_s8 on the decoded weights: each index byte's two weights read as int16 lanes from a
 * table of the 256 bytes' pairs (built once per call for a shared table, once per channel otherwise) against
 * the batch row widened once; other widths return MICROAOT_STATUS_VALUE_OUT_OF_RANGE. scratch:
 * MICROAOT_FC_PALETTE_PAIRS_BYTES(input_depth): the pair table, then the widened row. */
#define MICROAOT_FC_PALETTE_PAIRS_BYTES(depth) (MICROAOT_PALETTE_PAIR_TABLE_BYTES + 4 * (((depth) + 1) / 2))
microaot_status microaot_fully_connected_s8_packed_palette(const microaot_fully_connected_params_q* params,
                                                           const int8_t* input, const uint8_t* indices,
                                                           const int8_t* table, const int32_t* bias, int8_t* output,
                                                           void* scratch);

/* The same over int16 weight words (--optimize speed). */
microaot_status microaot_conv_2d_s8_packed_w16(const microaot_conv_2d_params_q* params, const int8_t* input,
                                               const int32_t* filter, const int32_t* requant, int8_t* output,
                                               void* scratch);
microaot_status microaot_conv_2d_s8_packed_w16_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                       const int32_t* filter, const int32_t* requant, int8_t* output,
                                                       void* scratch);
microaot_status microaot_conv_2d_s8_packed_kxk_w16(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                   const int32_t* filter, const int32_t* requant, int8_t* output,
                                                   void* scratch);
microaot_status microaot_conv_2d_s8_packed_kxk_w16_overlap(const microaot_conv_2d_params_q* params,
                                                           const int8_t* input, const int32_t* filter,
                                                           const int32_t* requant, int8_t* output, void* scratch);
microaot_status microaot_fully_connected_s8_packed_w16(const microaot_fully_connected_params_q* params,
                                                       const int8_t* input, const int32_t* weights,
                                                       const int32_t* requant, int8_t* output, void* scratch);

/* The 16x8 CONV_2D (int16 input and output, int8 weights, optional int64 bias; params as the model's, per-channel
 * multipliers and shifts read) over packed weights: any window, stride, dilation and padding of at most
 * MICROAOT_PACKED_S16_MAX_WINDOW elements (its int32 sums then cannot overflow: a product is below 2^22 in
 * magnitude; a longer window returns MICROAOT_STATUS_VALUE_OUT_OF_RANGE), filter_depth = input_depth; filter:
 * the packed words of each output channel's window (the int8 form, or _w16 the int16 one); scratch:
 * MICROAOT_PACKED_S16_BYTES(window, output_depth), the overlap flavor's output row after it. Bit-exact with
 * microaot_conv_2d_s16. */
#define MICROAOT_PACKED_S16_MAX_WINDOW 508
#define MICROAOT_PACKED_S16_BYTES(window, units) \
  (MICROAOT_PACKED_CHUNK_ROWS3_BYTES(window) + 4 * (((window) + 1) / 2) + 24 * (((units) + 1) / 2))
microaot_status microaot_conv_2d_s16_packed(const microaot_conv_2d_params_q* params, const int16_t* input,
                                            const int32_t* filter, const int64_t* bias, int16_t* output,
                                            void* scratch);
microaot_status microaot_conv_2d_s16_packed_overlap(const microaot_conv_2d_params_q* params, const int16_t* input,
                                                    const int32_t* filter, const int64_t* bias, int16_t* output,
                                                    void* scratch);
microaot_status microaot_conv_2d_s16_packed_w16(const microaot_conv_2d_params_q* params, const int16_t* input,
                                                const int32_t* filter, const int64_t* bias, int16_t* output,
                                                void* scratch);
microaot_status microaot_conv_2d_s16_packed_w16_overlap(const microaot_conv_2d_params_q* params,
                                                        const int16_t* input, const int32_t* filter,
                                                        const int64_t* bias, int16_t* output, void* scratch);

/* The 16x8 FULLY_CONNECTED (int16 input and output, symmetric int8 weights, optional int64 bias; params as the
 * model's, input_offset and filter_offset 0: the compiler takes it for those alone) over packed weights: rows of
 * at most MICROAOT_PACKED_S16_MAX_WINDOW elements (longer: MICROAOT_STATUS_VALUE_OUT_OF_RANGE); weights: the packed
 * words (the int8 form, or _w16 the int16 one); scratch: MICROAOT_PACKED_CHUNK_ROWS_BYTES(input_depth), two rows
 * in lane order. Bit-exact with microaot_fully_connected_s16. */
microaot_status microaot_fully_connected_s16_packed(const microaot_fully_connected_params_q* params,
                                                    const int16_t* input, const int32_t* weights,
                                                    const int64_t* bias, int16_t* output, void* scratch);
microaot_status microaot_fully_connected_s16_packed_w16(const microaot_fully_connected_params_q* params,
                                                        const int16_t* input, const int32_t* weights,
                                                        const int64_t* bias, int16_t* output, void* scratch);

/* The same over raw-form int8 weight words (microaot/internal/packed_dot.h; --optimize balanced, where the
 * compiler proves the layer's sums below 2^23). */
microaot_status microaot_conv_2d_s8_packed_raw(const microaot_conv_2d_params_q* params, const int8_t* input,
                                               const int32_t* filter, const int32_t* requant, int8_t* output,
                                               void* scratch);
microaot_status microaot_conv_2d_s8_packed_raw_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                       const int32_t* filter, const int32_t* requant, int8_t* output,
                                                       void* scratch);
microaot_status microaot_conv_2d_s8_packed_kxk_raw(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                   const int32_t* filter, const int32_t* requant, int8_t* output,
                                                   void* scratch);
microaot_status microaot_conv_2d_s8_packed_kxk_raw_overlap(const microaot_conv_2d_params_q* params,
                                                           const int8_t* input, const int32_t* filter,
                                                           const int32_t* requant, int8_t* output, void* scratch);
microaot_status microaot_fully_connected_s8_packed_raw(const microaot_fully_connected_params_q* params,
                                                       const int8_t* input, const int32_t* weights,
                                                       const int32_t* requant, int8_t* output, void* scratch);

/* An int8 TRANSPOSE_CONV as one convolution of unit stride per stride phase (microaot/fit/transpose_conv.h: the
 * phases, the fit, the scratch), each over the phase's taps like the k x k kernel's windows: params as the model's
 * (input_offset the padding's value), but for the per-channel arrays (NULL); filter: each phase's packed words,
 * requant: each phase's output step table (its folded bias: the bias plus the input offset times the phase's
 * weights), phases ry then rx ascending; scratch: MICROAOT_TRANSPOSE_CONV_PACKED_BYTES(the longest window,
 * output_depth). A layer outside microaot_fit_transpose_conv_packed returns MICROAOT_STATUS_VALUE_OUT_OF_RANGE. */
microaot_status microaot_transpose_conv_s8_packed(const microaot_transpose_conv_params_q* params, const int8_t* input,
                                                  const int32_t* filter, const int32_t* requant, int8_t* output,
                                                  void* scratch);
microaot_status microaot_transpose_conv_s8_packed_w16(const microaot_transpose_conv_params_q* params,
                                                      const int8_t* input, const int32_t* filter,
                                                      const int32_t* requant, int8_t* output, void* scratch);
microaot_status microaot_transpose_conv_s8_packed_raw(const microaot_transpose_conv_params_q* params,
                                                      const int8_t* input, const int32_t* filter,
                                                      const int32_t* requant, int8_t* output, void* scratch);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_PACKED_H */
