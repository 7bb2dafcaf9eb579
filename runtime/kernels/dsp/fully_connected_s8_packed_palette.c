/* int8 FULLY_CONNECTED over 4-bit palettised weights on the DSP (microaot/kernels/packed.h), bit-exact with
 * fully_connected_s8 on the decoded weights. Each weight meets one input per batch row, so no decode is
 * amortised (docs/palette-1x1-and-fc-m4.md): an index byte's two weights come out of a table of the 256 bytes'
 * weight pairs as int16 lanes (one load), against the row's inputs widened once to int16 pairs (offset added),
 * one SMLAD per two MACs. A shared table's pairs are built once per call, a channel's own once per channel. */
#include <stddef.h>

#include "microaot/internal/dsp.h"
#include "microaot/internal/palette.h"
#define MICROAOT_DTYPE s8
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/packed.h"

typedef microaot_fully_connected_params_q fc_params;

/* pairs[b] = (values[b & 15] + offset, values[b >> 4] + offset) as int16 lanes: index byte b's two weights. The
 * first 16 entries (high nibble 0) are built alone; every other block of 16 is block 0 with its top lane replaced,
 * three instructions an entry (a per-channel table is built for each channel). */
static void fc_palette_pairs(const int8_t* values, int32_t offset, uint32_t* pairs) {
  const uint32_t top0 = (uint32_t)((int32_t)values[0] + offset) << 16;
  unsigned hi, lo;
  for (lo = 0; lo < 16u; ++lo) pairs[lo] = microaot_dsp_pack16((int32_t)values[lo] + offset, (int32_t)values[0] + offset);
  for (hi = 1; hi < 16u; ++hi) {
    const uint32_t top = ((uint32_t)((int32_t)values[hi] + offset) << 16) - top0;
    uint32_t* const block = pairs + 16u * hi;
    for (lo = 0; lo < 16u; ++lo) block[lo] = pairs[lo] + top;
  }
}

/* Row `in` (n int8) plus the input offset as int16 pairs (x0, x1), (x2, x3), ...; an odd n's last top lane 0. */
static void fc_palette_widen(const int8_t* in, int32_t n, int32_t offset, uint32_t* x) {
  int32_t i;
  for (i = 0; i + 1 < n; i += 2) x[i / 2] = microaot_dsp_pack16(in[i] + offset, in[i + 1] + offset);
  if (i < n) x[i / 2] = microaot_dsp_pack16(in[i] + offset, 0);
}

/* The sum over a row of `bytes` index bytes against the widened inputs: four bytes per word load. */
static int32_t fc_palette_dot(const uint8_t* row, size_t bytes, const uint32_t* pairs, const uint32_t* x) {
  int32_t acc = 0;
  size_t i = 0;
  for (; i + 4 <= bytes; i += 4) {
    const uint32_t w = microaot_dsp_load4((const int8_t*)(row + i));
    acc = microaot_dsp_smlad(pairs[w & 255u], x[i], acc);
    acc = microaot_dsp_smlad(pairs[(w >> 8) & 255u], x[i + 1], acc);
    acc = microaot_dsp_smlad(pairs[(w >> 16) & 255u], x[i + 2], acc);
    acc = microaot_dsp_smlad(pairs[w >> 24], x[i + 3], acc);
  }
  for (; i < bytes; ++i) acc = microaot_dsp_smlad(pairs[row[i]], x[i], acc);
  return acc;
}

microaot_status microaot_fully_connected_s8_packed_palette(const microaot_fully_connected_params_q* params,
                                                           const int8_t* input, const uint8_t* indices,
                                                           const int8_t* table, const int32_t* bias, int8_t* output,
                                                           void* scratch) {
  const int32_t depth = params->input_depth, units = params->output_depth;
  const size_t row_bytes = microaot_palette_row_bytes((size_t)depth, 4);
  uint32_t* const pairs = (uint32_t*)scratch;
  uint32_t* const x = pairs + MICROAOT_PALETTE_PAIR_TABLE_BYTES / 4;
  int shared;
  int32_t b, u;
  if (indices == NULL || table == NULL || pairs == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (microaot_palette_bits(indices) != 4) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  shared = (indices[0] & MICROAOT_PALETTE_SHARED) != 0u;
  if (shared) fc_palette_pairs(table, params->filter_offset, pairs);
  for (b = 0; b < params->batches; ++b) {
    fc_palette_widen(input + (size_t)b * (size_t)depth, depth, params->input_offset, x);
    for (u = 0; u < units; ++u) {
      int32_t acc;
      if (!shared) fc_palette_pairs(table + ((size_t)u << 4), params->filter_offset, pairs);
      acc = fc_palette_dot(indices + 1 + (size_t)u * row_bytes, row_bytes, pairs, x);
      acc += bias != NULL ? bias[u] : 0;
      output[(size_t)b * (size_t)units + (size_t)u] = MICROAOT_OUTPUT(params, acc, u);
    }
  }
  return MICROAOT_STATUS_OK;
}
