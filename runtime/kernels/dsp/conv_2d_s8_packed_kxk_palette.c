/* int8 k x k CONV_2D over palettised weights on the DSP (microaot/kernels/packed.h): a block of output channels
 * decoded into the scratch as the _w16 kernels' weights (microaot/internal/palette_dot.h), then the packed k x k
 * kernel's own work against it: output pixels' windows gathered and widened three at a time
 * (microaot/internal/templates/packed_kxk_windows.h, padding taps as the input zero point, which the folded bias
 * of the output step's table cancels) and multiplied by the block's channel pairs in the _w16 row loops
 * (microaot_packed_rows3: 16 instructions per 24 MACs, stored in place; the last two or four pixels of a row in
 * pairs, microaot_packed_rows_w16: 11 per 16). Each weight is decoded once per call, each window
 * gathered (or, inside the image, read straight) and widened once per block. */
/* microaot-links: kernels/dsp/packed_rows_w16.c */
#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#include "microaot/internal/palette_dot.h"
#include "microaot/internal/templates/packed_kxk_windows.h"
#include "microaot/internal/templates/packed_rows3.h"

/* The block's `units` channels of output row `oy` (of one image) into `output` (the row's first pixel, at the
 * block's first channel): pixels three at a time, stored in place; the last two or four in pairs (as the k x k
 * packed kernel's) through `outputs` (two pixels' units bytes), then copied to their places. A 1x1 window without
 * padding is its input pixel, widened straight; three windows whose row runs are whole groups
 * (MICROAOT_PACKED_DIRECT_RUNS) straight where they lie inside the image; any other gathered first. */
static void block_row(const conv_params* p, const int8_t* image, int32_t oy, const uint32_t* block, int32_t units,
                      const microaot_dsp_output_stage* stage, const int32_t* step, const window_scratch* s,
                      int8_t* outputs, int8_t* output) {
  const int32_t groups = s->gathered_bytes / 4;
  const size_t pixel_bytes = (size_t)p->output_depth;
  const int pixels = microaot_packed_pixel_windows(p);
  const int runs = widens_direct(p);
  const size_t pixel_step = (size_t)p->stride_width * (size_t)p->input_depth;
  const int8_t* pixel =
      pixels ? image + (size_t)(oy * p->stride_height) * (size_t)p->input_width * (size_t)p->input_depth : NULL;
  int32_t ox, count, r;
  for (ox = 0; ox < p->output_width; ox += count, output += (size_t)count * pixel_bytes) {
    count = p->output_width - ox < 3 ? p->output_width - ox : p->output_width - ox == 4 ? 2 : 3;
    if (pixel != NULL) {
      widen_pixels(pixel, pixel_step, p->input_depth, count, s->rows);
      pixel += (size_t)count * pixel_step;
    } else if (!runs || count != 3 || !widen_direct(p, image, oy, ox, s->rows)) {
      for (r = 0; r < count; ++r) widen_window(p, image, oy, ox + r, s, s->rows + 2 * r, 2 * count);
    }
    if (count == 3) { /* stored in place, rows pixel_bytes apart */
      microaot_packed_rows3(s->rows, (const int32_t*)block, groups, units, stage, step, output, pixel_bytes);
      continue;
    }
    microaot_packed_rows_w16(s->rows, (const int32_t*)block, groups, units, stage, step, outputs,
                             count == 2 ? outputs + units : NULL);
    for (r = 0; r < count; ++r) memcpy(output + (size_t)r * pixel_bytes, outputs + r * units, (size_t)units);
  }
}

/* What every block of a call reads: the palette, the block's geometry and where the scratch's parts start. */
typedef struct {
  const uint8_t* indices;
  const int8_t* table;
  int bits;
  int32_t most;       /* the channels of a full block */
  size_t unit_words;  /* one channel's decoded window */
  uint32_t* block;
  window_scratch s;
  int8_t* outputs;    /* two pixels' outputs of a block */
  microaot_dsp_output_stage stage;
} kxk_call;

/* The call's parts from the scratch; a status other than OK refuses it before a byte of the output is written. */
static microaot_status kxk_setup(const conv_params* p, const uint8_t* indices, const int8_t* table,
                                 const int32_t* requant, void* scratch, kxk_call* k) {
  const int32_t window = microaot_conv_window_size(p);
  if (indices == NULL || table == NULL || requant == NULL || scratch == NULL) return MICROAOT_STATUS_NULL_POINTER;
  k->bits = microaot_palette_bits(indices);
  if (k->bits == 0 || !MICROAOT_PACKED_KXK_PALETTE_FITS(window) || p->filter_depth != p->input_depth) {
    return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  }
  k->indices = indices;
  k->table = table;
  k->most = microaot_packed_kxk_palette_units(window, p->output_depth);
  k->unit_words = (size_t)MICROAOT_PACKED_KXK_PALETTE_UNIT_BYTES(window) / 4;
  k->block = (uint32_t*)scratch;
  k->s.rows = k->block + (size_t)k->most * k->unit_words;
  k->s.gathered = (int8_t*)k->s.rows + MICROAOT_PACKED_CHUNK_ROWS3_BYTES(window);
  k->s.gathered_bytes = 4 * microaot_packed_groups(window);
  k->outputs = k->s.gathered + k->s.gathered_bytes;
  k->stage = (microaot_dsp_output_stage)MICROAOT_DSP_OUTPUT_STAGE(p, NULL);
  /* The gathered window's bytes past its end, up to a whole group, are never gathered into (their weights are
   * zeros too). */
  memset(k->s.gathered + window, 0, (size_t)(k->s.gathered_bytes - window));
  return MICROAOT_STATUS_OK;
}

/* Channels [u, u + count) decoded into the block. */
static void kxk_decode(const conv_params* p, const kxk_call* k, int32_t u, int32_t count) {
  int32_t q;
  for (q = 0; q < count; q += 4) {
    microaot_palette_decode_quad(k->indices, k->bits, k->table, (size_t)(u + q), count - q < 4 ? count - q : 4,
                                 microaot_conv_window_size(p), k->block + (size_t)q * k->unit_words);
  }
}

/* Channels [u, u + count) (the block) of output rows [first, end) (counted over all batches), row r at
 * output + (r - first) * row_bytes + u. */
static void kxk_rows(const conv_params* p, const kxk_call* k, const int8_t* input, int32_t u, int32_t count,
                     int32_t first, int32_t end, const int32_t* requant, int8_t* output) {
  const size_t image_bytes = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t row_bytes = (size_t)p->output_width * (size_t)p->output_depth;
  const int32_t* const step = requant + (u / 2) * MICROAOT_PACKED_STEP_WORDS;
  int32_t row;
  for (row = first; row < end; ++row) {
    block_row(p, input + (size_t)(row / p->output_height) * image_bytes, row % p->output_height, k->block, count,
              &k->stage, step, &k->s, k->outputs, output + (size_t)(row - first) * row_bytes + u);
  }
}

microaot_status microaot_conv_2d_s8_packed_kxk_palette(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                       const uint8_t* indices, const int8_t* table,
                                                       const int32_t* requant, int8_t* output, void* scratch) {
  const int32_t units = params->output_depth, rows = params->batches * params->output_height;
  kxk_call k;
  const microaot_status status = kxk_setup(params, indices, table, requant, scratch, &k);
  int32_t u;
  if (status != MICROAOT_STATUS_OK) return status;
  for (u = 0; u < units; u += k.most) {
    const int32_t count = units - u < k.most ? units - u : k.most;
    kxk_decode(params, &k, u, count);
    kxk_rows(params, &k, input, u, count, 0, rows, requant, output);
  }
  return MICROAOT_STATUS_OK;
}

/* Chunks of microaot_packed_kxk_palette_overlap_rows output rows, every block of a chunk computed into the scratch
 * after the plain flavor's parts and then stored (all the chunk's reads before its store: the row-wise in-place
 * bound); a single block is decoded once per call, several once per chunk. */
microaot_status microaot_conv_2d_s8_packed_kxk_palette_overlap(const microaot_conv_2d_params_q* params,
                                                               const int8_t* input, const uint8_t* indices,
                                                               const int8_t* table, const int32_t* requant,
                                                               int8_t* output, void* scratch) {
  const int32_t units = params->output_depth, rows = params->batches * params->output_height;
  const int32_t chunk = microaot_packed_kxk_palette_overlap_rows(params);
  const size_t row_bytes = (size_t)params->output_width * (size_t)units;
  kxk_call k;
  const microaot_status status = kxk_setup(params, indices, table, requant, scratch, &k);
  int8_t* held;
  int32_t first, u;
  if (status != MICROAOT_STATUS_OK) return status;
  held = (int8_t*)scratch + MICROAOT_PACKED_KXK_PALETTE_BYTES(microaot_conv_window_size(params), units);
  if (k.most >= units) kxk_decode(params, &k, 0, units);
  for (first = 0; first < rows; first += chunk) {
    const int32_t end = rows - first < chunk ? rows : first + chunk;
    for (u = 0; u < units; u += k.most) {
      const int32_t count = units - u < k.most ? units - u : k.most;
      if (k.most < units) kxk_decode(params, &k, u, count);
      kxk_rows(params, &k, input, u, count, first, end, requant, held);
    }
    memcpy(output + (size_t)first * row_bytes, held, (size_t)(end - first) * row_bytes);
  }
  return MICROAOT_STATUS_OK;
}
