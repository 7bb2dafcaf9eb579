/* Palettised weights (issue 32): a layer whose int8 weights take at most 2^bits values per output channel is
 * stored as packed indices plus a table per channel, and its kernel decodes one channel's weights at a time into
 * a scratch of one filter's bytes. The layout, which the compiler writes (compiler/ops/palette_weights.h):
 *   indices  byte 0: bits per index (1..8), plus MICROAOT_PALETTE_SHARED when one table serves every channel;
 *            then one row per channel, each starting on a byte: element i in bits [i * bits, (i + 1) * bits) of
 *            the row, counted from the least significant bit of its first byte
 *   table    2^bits int8 values per channel, or 2^bits in all when shared (an index past the values reads a 0 of
 *            the padding), so that no index of `bits` bits reads outside the table. */
#ifndef MICROAOT_INTERNAL_PALETTE_H
#define MICROAOT_INTERNAL_PALETTE_H

#include <stddef.h>
#include <stdint.h>

#define MICROAOT_PALETTE_MAX_BITS 8
/* Flag of byte 0: one table of 2^bits values for all channels (where per-channel tables would cost more than
 * they save, e.g. a 3x3 depthwise filter's 9 taps). */
#define MICROAOT_PALETTE_SHARED 0x80u
/* The bytes of a table of the 256 index bytes' weight pairs of a 4-bit palette, one word each (the DSP
 * FULLY_CONNECTED palette kernel's, microaot/kernels/packed.h). */
#define MICROAOT_PALETTE_PAIR_TABLE_BYTES 1024

/* The bits per index of a layer's indices, or 0 when byte 0 (less the shared flag) is outside 1..8 (a corrupt
 * graph blob). */
/* The output rows a DSP palette kernel's overlap flavor holds in its scratch before storing them (the output over
 * input 0 at the row-wise in-place bound): one row where one block holds every channel (its weights decoded once
 * per call), else enough rows for MICROAOT_PALETTE_OVERLAP_PIXELS output pixels, over which each chunk's decode of
 * the weights is repaid (about 4 instructions a weight against 1.3 a MAC: 5% at 64 pixels). The compiler sizes
 * the scratch by the same rule. */
#define MICROAOT_PALETTE_OVERLAP_PIXELS 64
static inline int32_t microaot_palette_chunk_rows(int32_t width, int32_t height, int one_block) {
  const int32_t rows = one_block ? 1 : (MICROAOT_PALETTE_OVERLAP_PIXELS + (width > 0 ? width : 1) - 1) /
                                           (width > 0 ? width : 1);
  return rows < height ? rows : (height > 0 ? height : 1);
}

static inline int microaot_palette_bits(const uint8_t* indices) {
  const int bits = (int)(indices[0] & ~MICROAOT_PALETTE_SHARED);
  return bits >= 1 && bits <= MICROAOT_PALETTE_MAX_BITS ? bits : 0;
}

/* Channel `channel`'s table: its own, or the one shared table. */
static inline const int8_t* microaot_palette_values(const uint8_t* indices, int bits, const int8_t* table,
                                                    size_t channel) {
  return (indices[0] & MICROAOT_PALETTE_SHARED) != 0u ? table : table + (channel << bits);
}

/* The bytes of one channel's row of n indices. */
static inline size_t microaot_palette_row_bytes(size_t n, int bits) { return (n * (size_t)bits + 7u) / 8u; }

/* Channel `channel`'s n weights, decoded into out[0], out[stride], out[2 * stride], ... An index never crosses
 * into the next row, and a row's last byte is read only for the bits it holds. */
static inline void microaot_palette_decode_strided(const uint8_t* indices, int bits, const int8_t* table,
                                                   size_t channel, size_t n, int8_t* out, size_t stride) {
  const uint8_t* row = indices + 1 + channel * microaot_palette_row_bytes(n, bits);
  const int8_t* values = microaot_palette_values(indices, bits, table, channel);
  const unsigned mask = (1u << bits) - 1u;
  size_t i, bit = 0;
  if (bits == 4) { /* the common palette of 16: two per byte */
    for (i = 0; i + 1 < n; i += 2, ++row) {
      out[i * stride] = values[*row & 15u];
      out[(i + 1) * stride] = values[*row >> 4];
    }
    if (i < n) out[i * stride] = values[*row & 15u];
    return;
  }
  for (i = 0; i < n; ++i, bit += (size_t)bits) {
    const size_t at = bit >> 3;
    const unsigned shift = (unsigned)(bit & 7u);
    unsigned v = (unsigned)row[at] >> shift;
    if (shift + (unsigned)bits > 8u) v |= (unsigned)row[at + 1] << (8u - shift);
    out[i * stride] = values[v & mask];
  }
}

/* The same side by side (one channel's filter). */
static inline void microaot_palette_decode(const uint8_t* indices, int bits, const int8_t* table, size_t channel,
                                           size_t n, int8_t* out) {
  microaot_palette_decode_strided(indices, bits, table, channel, n, out, 1);
}

#endif /* MICROAOT_INTERNAL_PALETTE_H */
