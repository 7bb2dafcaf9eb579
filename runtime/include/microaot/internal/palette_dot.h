/* The DSP palette kernel's block (microaot/kernels/packed.h, microaot_conv_2d_s8_packed_palette): four output
 * channels' palettised weights (microaot/internal/palette.h) decoded into the int16 layout of the packed kernels'
 * _w16 loops (microaot/internal/packed_dot.h: per unit pair and group of four elements, each unit's two words,
 * elements (0, 2) then (1, 3) as int16 lanes; the quad's second pair 4 * groups words after the first), which
 * then meets every input pixel as it lies in memory: one word load and two SXTB16 per group of the pixel, no
 * widened copy. The decode is paid once per four channels and the layer, the block is 32 bytes per group. */
#ifndef MICROAOT_INTERNAL_PALETTE_DOT_H
#define MICROAOT_INTERNAL_PALETTE_DOT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microaot/internal/dsp.h"
#include "microaot/internal/palette.h"

/* Words of the decoded block per group of four elements: four units, two words each. */
#define MICROAOT_PALETTE_QUAD_WORDS 8

/* Two int8 values as the int16 lanes of a word (lo in bits 0..15). */
static inline uint32_t microaot_palette_lanes(int8_t lo, int8_t hi) {
#if MICROAOT_DSP_ASM
  uint32_t word; /* one PKHBT: GCC writes UXTH and ORR */
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(word) : "r"((int32_t)lo), "r"((int32_t)hi));
  return word;
#else
  return (uint32_t)(uint16_t)(int16_t)lo | ((uint32_t)(uint16_t)(int16_t)hi << 16);
#endif
}

/* Index i of a row of `bits`-bit indices (palette.h's packing; the row's last byte read only for its bits). */
static inline unsigned microaot_palette_index(const uint8_t* row, size_t i, int bits) {
  const size_t bit = i * (size_t)bits, at = bit >> 3;
  const unsigned shift = (unsigned)(bit & 7u);
  unsigned v = (unsigned)row[at] >> shift;
  if (shift + (unsigned)bits > 8u) v |= (unsigned)row[at + 1] << (8u - shift);
  return v & ((1u << bits) - 1u);
}

#if defined(__GNUC__)
#define MICROAOT_PALETTE_INLINE static inline __attribute__((always_inline))
#else
#define MICROAOT_PALETTE_INLINE static inline
#endif

/* The groups of a row of indices of up to 6 bits through a bit buffer (a group's 4 * bits <= 24 bits, so a byte
 * always fits above what is left), from dst to end; inlined where `bits` is a constant (one copy per width). */
MICROAOT_PALETTE_INLINE void microaot_palette_stream_w16(const uint8_t* row, const int8_t* values, int bits,
                                                         uint32_t* dst, const uint32_t* end) {
  const unsigned mask = (1u << bits) - 1u, need = 4u * (unsigned)bits;
  uint32_t buffer = 0;
  unsigned have = 0;
  for (; dst != end; dst += 4) {
    while (have < need) {
      buffer |= (uint32_t)*row++ << have;
      have += 8u;
    }
    dst[0] = microaot_palette_lanes(values[buffer & mask], values[(buffer >> (2 * bits)) & mask]);
    dst[1] = microaot_palette_lanes(values[(buffer >> bits) & mask], values[(buffer >> (3 * bits)) & mask]);
    buffer >>= need;
    have -= need;
  }
}

/* The same at 4 bits: a group's four indices are one halfword (a row starts on a byte, so each group does). */
MICROAOT_PALETTE_INLINE void microaot_palette_stream4_w16(const uint8_t* row, const int8_t* values, uint32_t* dst,
                                                          const uint32_t* end) {
  for (; dst != end; dst += 4, row += 2) {
    uint16_t half;
    unsigned h;
    memcpy(&half, row, 2);
    h = half;
    dst[0] = microaot_palette_lanes(values[h & 15u], values[(h >> 8) & 15u]);
    dst[1] = microaot_palette_lanes(values[(h >> 4) & 15u], values[h >> 12]);
  }
}

/* Elements i .. i + 3 of the row, those at or past n as zeros: a group index by index (the widths the stream
 * does not take, and the last partial group of a row of n not a multiple of 4, never read past the row). */
static inline void microaot_palette_group_w16(const uint8_t* row, const int8_t* values, int bits, size_t i, size_t n,
                                              uint32_t* dst) {
  int8_t e[4];
  size_t k;
  for (k = 0; k < 4; ++k) e[k] = i + k < n ? values[microaot_palette_index(row, i + k, bits)] : 0;
  dst[0] = microaot_palette_lanes(e[0], e[2]);
  dst[1] = microaot_palette_lanes(e[1], e[3]);
}

/* Channel `channel`'s n weights into dst[0], dst[1] (group 0), dst[4], dst[5], ...: the unit's two words per
 * group in the layout above, the last group's elements past n as zeros. The widths clustering gives most (2, 3,
 * 4 bits) inlined with their constant; 7 and 8 bits index by index. */
static inline void microaot_palette_decode_w16(const uint8_t* indices, int bits, const int8_t* table,
                                               size_t channel, int32_t n, uint32_t* dst) {
  const uint8_t* row = indices + 1 + channel * microaot_palette_row_bytes((size_t)n, bits);
  const int8_t* const values = microaot_palette_values(indices, bits, table, channel);
  const int32_t whole = n & ~3;
  uint32_t* const end = dst + (size_t)whole;
  size_t i = 0;
  switch (bits) {
    case 2: microaot_palette_stream_w16(row, values, 2, dst, end); break;
    case 3: microaot_palette_stream_w16(row, values, 3, dst, end); break;
    case 4: microaot_palette_stream4_w16(row, values, dst, end); break;
    case 1: case 5: case 6: microaot_palette_stream_w16(row, values, bits, dst, end); break;
    default:
      for (; dst != end; dst += 4, i += 4) microaot_palette_group_w16(row, values, bits, i, (size_t)n, dst);
      break;
  }
  if (whole != n) microaot_palette_group_w16(row, values, bits, (size_t)whole, (size_t)n, end);
}

/* Channels first .. first + count - 1 (count 1..4) of rows of n weights into the block
 * (MICROAOT_PALETTE_QUAD_WORDS words per group of 4, the last group zero-padded); the absent channels of a last
 * partial quad as zeros. */
static inline void microaot_palette_decode_quad(const uint8_t* indices, int bits, const int8_t* table, size_t first,
                                                int32_t count, int32_t n, uint32_t* block) {
  const size_t pair_words = 4 * (((size_t)n + 3) / 4); /* 4 words per group of 4 elements */
  int32_t j;
  for (j = 0; j < 4; ++j) {
    uint32_t* const dst = block + (size_t)(j / 2) * pair_words + (size_t)(2 * (j % 2));
    if (j < count) {
      microaot_palette_decode_w16(indices, bits, table, first + (size_t)j, n, dst);
    } else {
      size_t g;
      for (g = 0; g < pair_words; g += 4) dst[g] = dst[g + 1] = 0u;
    }
  }
}

/* The assembly of one group: the pixel's word widened in registers (a0: elements 0, 2; a1: 1, 3), then each of
 * the four units' two int16 words (pair: units 0, 1; next: units 2, 3): 15 instructions per 16 MACs. */
#define MICROAOT_PALETTE_UNIT(p, s)                \
  "ldrd %[w0], %[w1], [%[" p "]], #8\n\t"         \
  "smlad %[" s "], %[a0], %[w0], %[" s "]\n\t"    \
  "smlad %[" s "], %[a1], %[w1], %[" s "]\n\t"
#define MICROAOT_PALETTE_GROUP              \
  "ldr %[a1], [%[row]], #4\n\t"             \
  "sxtb16 %[a0], %[a1]\n\t"                 \
  "sxtb16 %[a1], %[a1], ror #8\n\t"         \
  MICROAOT_PALETTE_UNIT("pair", "s0")       \
  MICROAOT_PALETTE_UNIT("pair", "s1")       \
  MICROAOT_PALETTE_UNIT("next", "s2")       \
  MICROAOT_PALETTE_UNIT("next", "s3")

/* acc[j] += row . unit j (j = 0..3) over `groups` (>= 1) groups of the int8 row (whole words: the kernels take
 * depths and runs that are multiples of four) and the decoded block. Two groups per iteration, an odd count
 * entering at the second (bit 4 of the pair's 16 * groups bytes). */
static inline void microaot_palette_dot_span(const uint32_t* pair, const uint32_t* next, const int8_t* row,
                                             int32_t groups, int32_t acc[4]);
static inline void microaot_palette_dot_1x4(const uint32_t* block, const int8_t* row, int32_t groups,
                                            int32_t acc[4]) {
  microaot_palette_dot_span(block, block + 4 * (size_t)groups, row, groups, acc);
}

/* The same over `groups` groups of a block's span: `pair` and `next` point at the span's first group in the
 * quad's two pairs (the k x k kernel's filter rows, each against its run of the image). */
static inline void microaot_palette_dot_span(const uint32_t* pair, const uint32_t* next, const int8_t* row,
                                             int32_t groups, int32_t acc[4]) {
  int32_t s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3];
  const uint32_t* const end = pair + 4 * (size_t)groups;
#if MICROAOT_DSP_ASM
  uint32_t w0, w1, a0, a1;
  __asm__(
      "sub %[w0], %[end], %[pair]\n\t"
      "lsls %[w0], %[w0], #27\n\t"
      "bmi 2f\n\t"
      "1:\n\t"
      MICROAOT_PALETTE_GROUP
      "2:\n\t"
      MICROAOT_PALETTE_GROUP
      "cmp %[pair], %[end]\n\t"
      "bne 1b\n\t"
      /* early clobbers: `end` may equal `next`, and must not share its register */
      : [pair] "+&r"(pair), [next] "+&r"(next), [row] "+&r"(row), [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2),
        [s3] "+r"(s3), [w0] "=&r"(w0), [w1] "=&r"(w1), [a0] "=&r"(a0), [a1] "=&r"(a1)
      : [end] "r"(end)
      : "cc", "memory");
#else
  for (; pair != end; pair += 4, next += 4, row += 4) {
    const uint32_t word = microaot_dsp_load4(row);
    const uint32_t a0 = microaot_dsp_sxtb16(word), a1 = microaot_dsp_sxtb16_ror8(word);
    s0 = microaot_dsp_smlad(a1, pair[1], microaot_dsp_smlad(a0, pair[0], s0));
    s1 = microaot_dsp_smlad(a1, pair[3], microaot_dsp_smlad(a0, pair[2], s1));
    s2 = microaot_dsp_smlad(a1, next[1], microaot_dsp_smlad(a0, next[0], s2));
    s3 = microaot_dsp_smlad(a1, next[3], microaot_dsp_smlad(a0, next[2], s3));
  }
#endif
  acc[0] = s0, acc[1] = s1, acc[2] = s2, acc[3] = s3;
}

#undef MICROAOT_PALETTE_UNIT
#undef MICROAOT_PALETTE_INLINE
#undef MICROAOT_PALETTE_GROUP

#endif /* MICROAOT_INTERNAL_PALETTE_DOT_H */
