/* int16 DEPTHWISE_CONV_2D (16x8) with the DSP extension, bit-exact with the portable kernel. Output channels two
 * at a time, each pair over all output rows (its constants once): the pair's taps widened once into words of
 * 16-bit lanes (w_c0, w_c1), so that a tap's input word of the two channels (adjacent in NHWC at depth multiplier
 * 1; gathered from c0 / m and c1 / m otherwise, or for an odd last channel, which pairs with itself) takes one
 * SMLABB and one SMLATT. Output pixels two at a time where both windows lie inside the image along x; a 3x3 filter
 * at stride = dilation along x runs a row of such pairs in assembly (run_pairs_3x3_asm: the second pixel's taps
 * one tap on, four input words a window row for both; where both channels read one input channel, its element
 * against both weight lanes, SMLABT), a row of windows clipped at the top or bottom, and a 3-wide window clipped
 * at the left or right, one row or tap inward against shifted weights (a zero where the clipped tap was). Other
 * windows at the edges by their in-image taps, as the reference does (a padding tap adds 0: int16 is symmetric).
 * The sums stay in int32 (at most 128 taps of 2^22: exact); the output step is one SMLAL per value
 * (microaot_dsp_s16_high_of: the bias and TFLite's 16x8 requantization as the reference, bit for bit), a pixel's
 * two values clamped as one word's lanes. Filters over 128 taps, a clamp outside int16 and shifts outside
 * [-17, -1] take the portable code (network_info.txt says so: compiler/kernels/isa_fallbacks.cpp). Stack: 1.3 KB. */
#include <stddef.h>
#include <string.h>

#include "microaot/fit/dsp_s16.h"
#include "microaot/internal/dsp_dot_s16.h"
#include "microaot/internal/window.h"
#include "microaot/kernels/conv.h"

/* The portable kernels, for the layers the fast path does not take, under their own names. */
void microaot_depthwise_conv_2d_s16_portable(const microaot_depthwise_conv_2d_params_q* params, const int16_t* input,
                                             const int8_t* filter, const int64_t* bias, int16_t* output);
void microaot_depthwise_conv_2d_s16_overlap_portable(const microaot_depthwise_conv_2d_params_q* params,
                                                     const int16_t* input, const int8_t* filter, const int64_t* bias,
                                                     int16_t* output, void* scratch);
#define MICROAOT_DTYPE s16
#define MICROAOT_CONV depthwise_conv_2d
#define MICROAOT_FN microaot_depthwise_conv_2d_s16_portable
#define MICROAOT_FN_OVERLAP microaot_depthwise_conv_2d_s16_overlap_portable
#include "microaot/internal/templates/conv.h"

typedef microaot_depthwise_conv_2d_params_q dw_params;

/* The layer's steps in elements and what every pair shares. */
typedef struct {
  const dw_params* p;
  ptrdiff_t tap;          /* between a window row's taps: dilation_width pixels */
  ptrdiff_t row;          /* between a window's rows: dilation_height input rows */
  ptrdiff_t pixel;        /* between two neighbouring output pixels' windows: stride_width pixels */
  int32_t inner_begin;    /* output columns [inner_begin, inner_end) have every tap inside along x */
  int32_t inner_end;
  /* Columns inner_begin - 1 and inner_end: where a 3-wide window clipped by one tap at the left ([0]) or right ([1])
   * reads three in-image taps one tap inward against shifted weights, the first one's input column, else -1. */
  int32_t edge_x[2];
} dw_layer;

/* The output step of a channel pair: c0's and c1's, and the clamp in both lanes. */
typedef struct {
  microaot_dsp_s16_high step[2];
  uint32_t lo, hi;
} dw_out;
/* The offsets store_pair and run_pairs_3x3_asm read. */
typedef char dw_out_layout[sizeof(microaot_dsp_s16_high) == 16 && offsetof(microaot_dsp_s16_high, multiplier) == 8 &&
                                   offsetof(dw_out, lo) == 32
                               ? 1
                               : -1];

/* A row of pixel pairs whose three window rows all lie inside, for run_pairs_3x3_asm (offsets fixed there). */
typedef struct {
  const int16_t* a;   /* the first pair's first tap */
  int16_t* out;       /* the first pair's first output */
  int32_t pairs;      /* at least one */
  const uint32_t* w;  /* the window's widened weights */
  const dw_out* o;
  ptrdiff_t tap;      /* bytes between a row's taps (= between the pair's pixels) */
  ptrdiff_t next;     /* bytes from a row's second tap to the next row's first */
  ptrdiff_t a_next;   /* bytes from the third row's second tap to the next pair's first tap */
  ptrdiff_t out_next; /* bytes between a pair's two output pixels */
  ptrdiff_t out_step; /* bytes between two pairs' outputs */
} dw_run;
#if MICROAOT_DSP_ASM
typedef char dw_run_layout[offsetof(dw_run, tap) == 20 && offsetof(dw_run, out_step) == 36 ? 1 : -1];
#endif

/* The rows of a 3-wide filter whose edge windows edge_pixel takes. */
#define DW16_EDGE_ROWS 8

/* Output channels c0 and c1 (c1 == c0: an odd last channel): their widened taps and output steps. */
typedef struct {
  uint32_t w[MICROAOT_DEPTHWISE_S16_DSP_TAPS_MAX];
  /* A 3-wide filter's rows shifted by a tap: [0] (w1, w2, 0) for a window clipped at the left, [1] (0, w0, w1) at
   * the right, so that such a window reads three in-image taps one tap inward (edge_pixel). */
  uint32_t edge[2][3 * DW16_EDGE_ROWS];
  /* A 3x3 filter's rows shifted by a row: [0] (row 1, row 2, 0) for windows clipped at the top, [1] (0, row 0,
   * row 1) at the bottom, so that such a row of windows reads three in-image rows one row inward (run_row). */
  uint32_t rows[2][9];
  dw_out out;
  ptrdiff_t in0;    /* c0's input channel */
  ptrdiff_t gather; /* c1's input channel minus c0's; -1: the word at in0 holds both (depth multiplier 1) */
  int pair;         /* c1 != c0 */
  int edges;        /* a pair whose filter is 3 wide and at most DW16_EDGE_ROWS high: edge[] (and rows[] at 3x3) */
  dw_run run;       /* a 3x3 filter's inner pairs (run_row): the fields but a, out and pairs */
} dw_pair;

/* edge_x's rule for column ox at side 0 (left) or 1 (right). */
static int32_t edge_x_of(const dw_params* p, int32_t ox, int side) {
  const microaot_window x =
      microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
  const int32_t dilation = p->dilation_width;
  if (p->filter_width != 3 || ox < 0 || ox >= p->output_width) return -1;
  if (side == 0 && x.begin == 1 && x.end == 3 && x.origin + 3 * dilation < p->input_width) return x.origin + dilation;
  if (side == 1 && x.begin == 0 && x.end == 2 && x.origin - dilation >= 0) return x.origin - dilation;
  return -1;
}

static dw_layer layer_of(const dw_params* p) {
  const ptrdiff_t depth = p->input_depth;
  dw_layer L;
  int32_t ox;
  L.p = p;
  L.tap = (ptrdiff_t)p->dilation_width * depth;
  L.row = (ptrdiff_t)p->dilation_height * p->input_width * depth;
  L.pixel = (ptrdiff_t)p->stride_width * depth;
  L.inner_begin = p->output_width, L.inner_end = p->output_width;
  for (ox = 0; ox < p->output_width; ++ox) { /* the inner columns are contiguous */
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
    const int inner = x.begin == 0 && x.end == p->filter_width;
    if (inner && L.inner_begin == p->output_width) L.inner_begin = ox;
    if (!inner && L.inner_begin != p->output_width && L.inner_end == p->output_width) L.inner_end = ox;
  }
  L.edge_x[0] = edge_x_of(p, L.inner_begin - 1, 0);
  L.edge_x[1] = edge_x_of(p, L.inner_end, 1);
  return L;
}

static void pair_of(const dw_params* p, const int8_t* filter, const int64_t* bias, int32_t c0, dw_pair* q) {
  const int32_t c1 = c0 + 1 < p->output_depth ? c0 + 1 : c0, taps = p->filter_height * p->filter_width;
  const size_t depth = (size_t)p->output_depth;
  int32_t t, k;
  for (t = 0; t < taps; ++t) {
    q->w[t] = microaot_dsp_pack16(filter[(size_t)t * depth + (size_t)c0], filter[(size_t)t * depth + (size_t)c1]);
  }
  for (k = 0; k < 2; ++k) {
    const int32_t c = k == 0 ? c0 : c1;
    const microaot_dsp_s16_channel ch = microaot_dsp_s16_channel_of(
        bias, p->output_multiplier[c], p->output_shift[c], p->output_offset, p->activation_min, p->activation_max, c);
    q->out.step[k] = microaot_dsp_s16_high_of(&ch);
  }
  q->out.lo = microaot_dsp_pack16(p->activation_min, p->activation_min);
  q->out.hi = microaot_dsp_pack16(p->activation_max, p->activation_max);
  q->pair = c1 != c0;
  q->in0 = c0 / p->depth_multiplier;
  q->gather = p->depth_multiplier == 1 && q->pair ? -1 : c1 / p->depth_multiplier - q->in0;
  q->edges = p->filter_width == 3 && p->filter_height <= DW16_EDGE_ROWS && q->pair;
  for (t = 0; q->edges && t < taps; t += 3) {
    q->edge[0][t] = q->w[t + 1], q->edge[0][t + 1] = q->w[t + 2], q->edge[0][t + 2] = 0;
    q->edge[1][t] = 0, q->edge[1][t + 1] = q->w[t], q->edge[1][t + 2] = q->w[t + 1];
  }
  for (t = 0; q->edges && p->filter_height == 3 && t < 3; ++t) {
    q->rows[0][t] = q->w[3 + t], q->rows[0][3 + t] = q->w[6 + t], q->rows[0][6 + t] = 0;
    q->rows[1][t] = 0, q->rows[1][3 + t] = q->w[t], q->rows[1][6 + t] = q->w[3 + t];
  }
}

/* The two channels' inputs at a: one word, or gathered from two elements. */
static inline __attribute__((always_inline)) uint32_t input_word(const int16_t* a, ptrdiff_t gather) {
  uint32_t word;
  if (gather < 0) {
    memcpy(&word, a, 4);
    return word;
  }
  return microaot_dsp_pack16(a[0], a[gather]);
}

/* One pixel's two values from their sums into out (one value for an odd last channel). */
static inline __attribute__((always_inline)) void store_pixel(const dw_out* o, int pair, int32_t s0, int32_t s1,
                                                              int16_t* out) {
  const int32_t v0 = microaot_dsp_ssat16(microaot_dsp_s16_high_output(&o->step[0], s0));
  const int32_t v1 = microaot_dsp_ssat16(microaot_dsp_s16_high_output(&o->step[1], s1));
  const uint32_t word = microaot_dsp_clamp16x2(microaot_dsp_pkhbt((uint32_t)v0, (uint32_t)v1), o->lo, o->hi);
  if (pair) {
    memcpy(out, &word, 4);
  } else {
    out[0] = (int16_t)microaot_dsp_bottom(word);
  }
}

/* Two pixels' two channels (sums s[0], s[1] and s[2], s[3]) into out and out + next (bytes): store_pixel twice, each
 * channel's multiplier loaded once, 27 instructions. */
static inline __attribute__((always_inline)) void store_pair(const dw_out* o, const int32_t s[4], int16_t* out,
                                                             ptrdiff_t next) {
#if MICROAOT_DSP_ASM
  int32_t s0 = s[0], s1 = s[1], t0 = s[2], t1 = s[3];
  uint32_t m, lo, hi;
  __asm__ volatile( /* it stores */
      "ldr %[m], [%[o], #8]\n\t"
      "ldrd %[lo], %[hi], [%[o]]\n\t"
      "smlal %[lo], %[hi], %[s0], %[m]\n\t"
      "ssat %[s0], #16, %[hi]\n\t"
      "ldrd %[lo], %[hi], [%[o]]\n\t"
      "smlal %[lo], %[hi], %[t0], %[m]\n\t"
      "ssat %[t0], #16, %[hi]\n\t"
      "ldr %[m], [%[o], #24]\n\t"
      "ldrd %[lo], %[hi], [%[o], #16]\n\t"
      "smlal %[lo], %[hi], %[s1], %[m]\n\t"
      "ssat %[s1], #16, %[hi]\n\t"
      "ldrd %[lo], %[hi], [%[o], #16]\n\t"
      "smlal %[lo], %[hi], %[t1], %[m]\n\t"
      "ssat %[t1], #16, %[hi]\n\t"
      "pkhbt %[s0], %[s0], %[s1], lsl #16\n\t"
      "pkhbt %[t0], %[t0], %[t1], lsl #16\n\t"
      "ldrd %[lo], %[hi], [%[o], #32]\n\t"
      "ssub16 %[m], %[s0], %[lo]\n\t"
      "sel %[s0], %[s0], %[lo]\n\t"
      "ssub16 %[m], %[hi], %[s0]\n\t"
      "sel %[s0], %[s0], %[hi]\n\t"
      "ssub16 %[m], %[t0], %[lo]\n\t"
      "sel %[t0], %[t0], %[lo]\n\t"
      "ssub16 %[m], %[hi], %[t0]\n\t"
      "sel %[t0], %[t0], %[hi]\n\t"
      "str %[s0], [%[out]]\n\t"
      "str %[t0], [%[out], %[next]]"
      : [s0] "+r"(s0), [s1] "+r"(s1), [t0] "+r"(t0), [t1] "+r"(t1), [m] "=&r"(m), [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [o] "r"(o), [out] "r"(out), [next] "r"(next)
      : "cc", "memory");
#else
  store_pixel(o, 1, s[0], s[1], out);
  store_pixel(o, 1, s[2], s[3], (int16_t*)(void*)((char*)out + next));
#endif
}

#if MICROAOT_DSP_ASM
/* pair_taps's 3-wide sliding rows (at least one): per row the three weight words (LDRD, LDR), the four input words
 * (the third and fourth at twice the tap step from the first and second), twelve SMLABB/SMLATT, the pointer's
 * step; 19 instructions and the loop's two per 12 products. `tap` and `row` in bytes. */
static inline void slide3_rows_asm(const int16_t* a, const uint32_t* w, int32_t rows, ptrdiff_t tap, ptrdiff_t row,
                                   int32_t s[4]) {
  int32_t s0 = s[0], s1 = s[1], t0 = s[2], t1 = s[3];
  uint32_t w0, w1, w2, x;
  const ptrdiff_t next = row - tap; /* from the row's second tap to the next row's first */
  __asm__(
      "1:\n\t"
      "ldrd %[w0], %[w1], [%[w]], #12\n\t"
      "ldr %[x], [%[a]]\n\t"
      "ldr %[w2], [%[w], #-4]\n\t"
      "smlabb %[s0], %[x], %[w0], %[s0]\n\t"
      "smlatt %[s1], %[x], %[w0], %[s1]\n\t"
      "ldr %[x], [%[a], %[tap]]\n\t"
      "smlabb %[t0], %[x], %[w0], %[t0]\n\t"
      "smlatt %[t1], %[x], %[w0], %[t1]\n\t"
      "smlabb %[s0], %[x], %[w1], %[s0]\n\t"
      "smlatt %[s1], %[x], %[w1], %[s1]\n\t"
      "ldr %[x], [%[a], %[tap], lsl #1]\n\t"
      "add %[a], %[a], %[tap]\n\t"
      "smlabb %[t0], %[x], %[w1], %[t0]\n\t"
      "smlatt %[t1], %[x], %[w1], %[t1]\n\t"
      "smlabb %[s0], %[x], %[w2], %[s0]\n\t"
      "smlatt %[s1], %[x], %[w2], %[s1]\n\t"
      "ldr %[x], [%[a], %[tap], lsl #1]\n\t"
      "add %[a], %[a], %[next]\n\t"
      "smlabb %[t0], %[x], %[w2], %[t0]\n\t"
      "smlatt %[t1], %[x], %[w2], %[t1]\n\t"
      "subs %[n], %[n], #1\n\t"
      "bne 1b"
      : [s0] "+r"(s0), [s1] "+r"(s1), [t0] "+r"(t0), [t1] "+r"(t1), [a] "+r"(a), [w] "+r"(w), [n] "+r"(rows),
        [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [x] "=&r"(x)
      : [tap] "r"(tap), [next] "r"(next)
      : "cc", "memory");
  s[0] = s0, s[1] = s1, s[2] = t0, s[3] = t1;
}
#endif

#if MICROAOT_DSP_ASM

/* A 3x3 window row: the three weight words, the four input words of the two pixels (the second pixel's taps one
 * tap on), twelve products (MAC "mul": the window's first row starts the sums), the pointer on to the next row
 * (`last`: "" for the third row). LD, HI: "ldr", "tt" where each input word holds both channels' inputs; "ldrh",
 * "bt" where both channels read one input channel (its element in the bottom lane, against both weight lanes). */
#define DW16_MUL(acc, x, w, lanes) "smul" lanes " %[" acc "], %[" x "], %[" w "]\n\t"
#define DW16_MLA(acc, x, w, lanes) "smla" lanes " %[" acc "], %[" x "], %[" w "], %[" acc "]\n\t"
#define DW16_ROW(MAC, LD, HI, last)                           \
  "ldrd %[w0], %[w1], [%[w]], #12\n\t"                        \
  LD " %[x], [%[a]]\n\t"                                      \
  "ldr %[w2], [%[w], #-4]\n\t"                                \
  MAC("s0", "x", "w0", "bb") MAC("s1", "x", "w0", HI)         \
  LD " %[x], [%[a], %[tap]]\n\t"                              \
  MAC("t0", "x", "w0", "bb") MAC("t1", "x", "w0", HI)         \
  "smlabb %[s0], %[x], %[w1], %[s0]\n\t"                      \
  "smla" HI " %[s1], %[x], %[w1], %[s1]\n\t"                  \
  LD " %[x], [%[a], %[tap], lsl #1]\n\t"                      \
  "add %[a], %[a], %[tap]\n\t"                                \
  "smlabb %[t0], %[x], %[w1], %[t0]\n\t"                      \
  "smla" HI " %[t1], %[x], %[w1], %[t1]\n\t"                 \
  "smlabb %[s0], %[x], %[w2], %[s0]\n\t"                      \
  "smla" HI " %[s1], %[x], %[w2], %[s1]\n\t"                 \
  LD " %[x], [%[a], %[tap], lsl #1]\n\t"                      \
  last                                                        \
  "smlabb %[t0], %[x], %[w2], %[t0]\n\t"                      \
  "smla" HI " %[t1], %[x], %[w2], %[t1]\n\t"

/* Every pair of run `r` (one output row of a channel pair, its windows all inside): per pair the 3x3 window of both
 * pixels (56 instructions for 36 products), the output step of the four values (store_pair's 27), the pointers
 * and the count kept in `r` (thirteen registers hold the loop). */
#define DW16_RUN(LD, HI)                                                                                   \
  __asm__ volatile( /* it stores */                                                                        \
      "1:\n\t"                                                                                             \
      "ldr %[w], [%[r], #12]\n\t"                                                                          \
      "ldrd %[tap], %[next], [%[r], #20]\n\t"                                                              \
      DW16_ROW(DW16_MUL, LD, HI, "add %[a], %[a], %[next]\n\t")                                            \
      DW16_ROW(DW16_MLA, LD, HI, "add %[a], %[a], %[next]\n\t")                                            \
      DW16_ROW(DW16_MLA, LD, HI, "")                                                                       \
      "ldr %[w], [%[r], #16]\n\t" /* o */                                                                  \
      "ldr %[x], [%[w], #8]\n\t"                                                                           \
      "ldrd %[w0], %[w1], [%[w]]\n\t"                                                                      \
      "smlal %[w0], %[w1], %[s0], %[x]\n\t"                                                                \
      "ssat %[s0], #16, %[w1]\n\t"                                                                         \
      "ldrd %[w0], %[w1], [%[w]]\n\t"                                                                      \
      "smlal %[w0], %[w1], %[t0], %[x]\n\t"                                                                \
      "ssat %[t0], #16, %[w1]\n\t"                                                                         \
      "ldr %[x], [%[w], #24]\n\t"                                                                          \
      "ldrd %[w0], %[w1], [%[w], #16]\n\t"                                                                 \
      "smlal %[w0], %[w1], %[s1], %[x]\n\t"                                                                \
      "ssat %[s1], #16, %[w1]\n\t"                                                                         \
      "ldrd %[w0], %[w1], [%[w], #16]\n\t"                                                                 \
      "smlal %[w0], %[w1], %[t1], %[x]\n\t"                                                                \
      "ssat %[t1], #16, %[w1]\n\t"                                                                         \
      "pkhbt %[s0], %[s0], %[s1], lsl #16\n\t"                                                             \
      "pkhbt %[t0], %[t0], %[t1], lsl #16\n\t"                                                             \
      "ldrd %[w0], %[w1], [%[w], #32]\n\t"                                                                 \
      "ssub16 %[x], %[s0], %[w0]\n\t"                                                                      \
      "sel %[s0], %[s0], %[w0]\n\t"                                                                        \
      "ssub16 %[x], %[w1], %[s0]\n\t"                                                                      \
      "sel %[s0], %[s0], %[w1]\n\t"                                                                        \
      "ssub16 %[x], %[t0], %[w0]\n\t"                                                                      \
      "sel %[t0], %[t0], %[w0]\n\t"                                                                        \
      "ssub16 %[x], %[w1], %[t0]\n\t"                                                                      \
      "sel %[t0], %[t0], %[w1]\n\t"                                                                        \
      "ldr %[tap], [%[r], #4]\n\t"  /* out */                                                              \
      "ldr %[next], [%[r], #32]\n\t" /* out_next */                                                        \
      "str %[s0], [%[tap]]\n\t"                                                                            \
      "str %[t0], [%[tap], %[next]]\n\t"                                                                   \
      "ldr %[next], [%[r], #36]\n\t"                                                                       \
      "add %[tap], %[tap], %[next]\n\t"                                                                    \
      "str %[tap], [%[r], #4]\n\t"                                                                         \
      "ldr %[next], [%[r], #28]\n\t"                                                                       \
      "add %[a], %[a], %[next]\n\t"                                                                        \
      "ldr %[next], [%[r], #8]\n\t"                                                                        \
      "subs %[next], %[next], #1\n\t"                                                                      \
      "str %[next], [%[r], #8]\n\t"                                                                        \
      "bne 1b"                                                                                             \
      : [a] "+r"(a), [s0] "=&r"(s0), [s1] "=&r"(s1), [t0] "=&r"(t0), [t1] "=&r"(t1), [w] "=&r"(w),         \
        [tap] "=&r"(tap), [next] "=&r"(next), [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [x] "=&r"(x) \
      : [r] "r"(r)                                                                                         \
      : "cc", "memory");

static void run_pairs_3x3_asm(dw_run* r, int shared) {
  const int16_t* a = r->a;
  int32_t s0, s1, t0, t1;
  uint32_t w, tap, next, w0, w1, w2, x;
  if (shared) {
    DW16_RUN("ldrh", "bt");
  } else {
    DW16_RUN("ldr", "tt");
  }
}
#endif

/* Two neighbouring pixels whose windows lie inside along x: `a` is the first one's tap (first row, 0) at the pair's
 * input channel, w its weights from that row on; `rows` window rows. A 3-wide window at stride = dilation (the
 * second pixel's tap k is the first one's k + 1) loads four input words per row. */
static inline __attribute__((always_inline)) void pair_taps(const dw_layer* L, const int16_t* a, const uint32_t* w,
                                                            int32_t rows, ptrdiff_t gather, int slide3,
                                                            int32_t s[4]) {
  const int32_t width = L->p->filter_width;
  int32_t s0 = 0, s1 = 0, t0 = 0, t1 = 0, r, k;
#if MICROAOT_DSP_ASM
  if (slide3) {
    s[0] = s[1] = s[2] = s[3] = 0;
    if (rows > 0) slide3_rows_asm(a, w, rows, L->tap * 2, L->row * 2, s);
    return;
  }
#endif
  for (r = 0; r < rows; ++r, a += L->row, w += width) {
    if (slide3) {
      const uint32_t x0 = input_word(a, gather), x1 = input_word(a + L->tap, gather);
      const uint32_t x2 = input_word(a + 2 * L->tap, gather), x3 = input_word(a + 3 * L->tap, gather);
      const uint32_t w0 = w[0], w1 = w[1], w2 = w[2];
      s0 = microaot_dsp_smlabb(x0, w0, s0), s1 = microaot_dsp_smlatt(x0, w0, s1);
      t0 = microaot_dsp_smlabb(x1, w0, t0), t1 = microaot_dsp_smlatt(x1, w0, t1);
      s0 = microaot_dsp_smlabb(x1, w1, s0), s1 = microaot_dsp_smlatt(x1, w1, s1);
      t0 = microaot_dsp_smlabb(x2, w1, t0), t1 = microaot_dsp_smlatt(x2, w1, t1);
      s0 = microaot_dsp_smlabb(x2, w2, s0), s1 = microaot_dsp_smlatt(x2, w2, s1);
      t0 = microaot_dsp_smlabb(x3, w2, t0), t1 = microaot_dsp_smlatt(x3, w2, t1);
      continue;
    }
    for (k = 0; k < width; ++k) {
      const uint32_t x = input_word(a + k * L->tap, gather), y = input_word(a + k * L->tap + L->pixel, gather);
      s0 = microaot_dsp_smlabb(x, w[k], s0), s1 = microaot_dsp_smlatt(x, w[k], s1);
      t0 = microaot_dsp_smlabb(y, w[k], t0), t1 = microaot_dsp_smlatt(y, w[k], t1);
    }
  }
  s[0] = s0, s[1] = s1, s[2] = t0, s[3] = t1;
}

/* One pixel over window (y, x)'s in-image taps: `image` at the pair's input channel. */
static void single_pixel(const dw_layer* L, const dw_pair* q, const int16_t* image, const microaot_window* y,
                         const microaot_window* x, int16_t* out) {
  const dw_params* p = L->p;
  const int32_t width = p->filter_width;
  int32_t s0 = 0, s1 = 0, fy, fx;
  for (fy = y->begin; fy < y->end; ++fy) {
    const int16_t* a = image + ((ptrdiff_t)(y->origin + fy * p->dilation_height) * p->input_width + x->origin) *
                                   p->input_depth;
    for (fx = x->begin; fx < x->end; ++fx) {
      const uint32_t word = input_word(a + fx * L->tap, q->gather), weights = q->w[fy * width + fx];
      s0 = microaot_dsp_smlabb(word, weights, s0);
      s1 = microaot_dsp_smlatt(word, weights, s1);
    }
  }
  store_pixel(&q->out, q->pair, s0, s1, out);
}

/* One pixel over a 3-wide window of three in-image taps per row: `a` its first tap (first row), w the weights of
 * that row (the filter's, or an edge's shifted ones); the inputs as input_word takes them by `gather`. */
static inline __attribute__((always_inline)) void window3_pixel(const dw_layer* L, const dw_pair* q, const int16_t* a,
                                                                const uint32_t* w, int32_t rows, ptrdiff_t gather,
                                                                int16_t* out) {
  int32_t s0 = 0, s1 = 0, r;
  for (r = 0; r < rows; ++r, a += L->row, w += 3) {
    const uint32_t x0 = input_word(a, gather), x1 = input_word(a + L->tap, gather);
    const uint32_t x2 = input_word(a + 2 * L->tap, gather);
    s0 = microaot_dsp_smlabb(x0, w[0], s0), s1 = microaot_dsp_smlatt(x0, w[0], s1);
    s0 = microaot_dsp_smlabb(x1, w[1], s0), s1 = microaot_dsp_smlatt(x1, w[1], s1);
    s0 = microaot_dsp_smlabb(x2, w[2], s0), s1 = microaot_dsp_smlatt(x2, w[2], s1);
  }
  store_pixel(&q->out, 1, s0, s1, out);
}

/* window3_pixel of a channel pair (q->pair), its input words loaded whole at depth multiplier 1. */
static void edge_pixel(const dw_layer* L, const dw_pair* q, const int16_t* a, const uint32_t* w, int32_t rows,
                       int16_t* out) {
  if (q->gather < 0) {
    window3_pixel(L, q, a, w, rows, -1, out);
  } else {
    window3_pixel(L, q, a, w, rows, q->gather, out);
  }
}

/* Output column ox outside the inner ones: a 3-wide window clipped by one tap whose shifted window lies inside by
 * edge_pixel (the columns next to the inner ones as layer_of found them), any other by its in-image taps. */
static void outer_pixel(const dw_layer* L, const dw_pair* q, const int16_t* image, const microaot_window* y,
                        int32_t ox, int16_t* out) {
  const dw_params* p = L->p;
  const int side = ox >= L->inner_end;
  const int32_t start = ox == L->inner_begin - 1 || ox == L->inner_end ? L->edge_x[side]
                        : q->edges                                     ? edge_x_of(p, ox, side)
                                                                       : -1;
  microaot_window x;
  if (q->edges && start >= 0 && y->end > y->begin) {
    const int16_t* a =
        image + ((ptrdiff_t)(y->origin + y->begin * p->dilation_height) * p->input_width + start) * p->input_depth;
    edge_pixel(L, q, a, q->edge[side] + 3 * y->begin, y->end - y->begin, out);
    return;
  }
  x = microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
  single_pixel(L, q, image, y, &x, out);
}

/* The inner pixels [begin, end) of one output row in pairs (a lone last one alone), each pair's taps as pair_taps
 * with these constant arguments (one copy of the loop each). */
static inline __attribute__((always_inline)) void inner_pairs(const dw_layer* L, const dw_pair* q,
                                                              const int16_t* image, const microaot_window* y,
                                                              int32_t begin, int32_t end, int16_t* out,
                                                              ptrdiff_t gather, int slide3) {
  const dw_params* p = L->p;
  const ptrdiff_t depth = p->output_depth, pixel_out = 2 * depth;
  const int16_t* a = image + ((ptrdiff_t)(y->origin + y->begin * p->dilation_height) * p->input_width +
                              (ptrdiff_t)begin * p->stride_width - p->pad_width) *
                                 p->input_depth;
  const uint32_t* w = q->w + y->begin * p->filter_width;
  const int32_t rows = y->end - y->begin;
  int16_t* o = out + (ptrdiff_t)begin * depth;
  int32_t ox, s[4];
  for (ox = begin; ox + 1 < end; ox += 2, a += 2 * L->pixel, o += pixel_out) {
    pair_taps(L, a, w, rows, gather, slide3, s);
    if (gather < 0 || q->pair) { /* gather < 0: depth multiplier 1 and c0 + 1 inside */
      store_pair(&q->out, s, o, depth * (ptrdiff_t)sizeof(int16_t));
    } else {
      store_pixel(&q->out, 0, s[0], s[1], o);
      store_pixel(&q->out, 0, s[2], s[3], o + depth);
    }
  }
  if (ox < end && slide3 && q->edges) {
    edge_pixel(L, q, a, w, rows, o);
  } else if (ox < end) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->pad_width, p->filter_width, p->dilation_width, p->input_width);
    single_pixel(L, q, image, y, &x, o);
  }
}

static __attribute__((noinline)) void inner_slide3(const dw_layer* L, const dw_pair* q, const int16_t* image,
                                                   const microaot_window* y, int16_t* out) {
  inner_pairs(L, q, image, y, L->inner_begin, L->inner_end, out, -1, 1);
}

static __attribute__((noinline)) void inner_any(const dw_layer* L, const dw_pair* q, const int16_t* image,
                                                const microaot_window* y, int16_t* out) {
  inner_pairs(L, q, image, y, L->inner_begin, L->inner_end, out, -1, 0);
}

static __attribute__((noinline)) void inner_gathered(const dw_layer* L, const dw_pair* q, const int16_t* image,
                                                     const microaot_window* y, int16_t* out) {
  inner_pairs(L, q, image, y, L->inner_begin, L->inner_end, out, q->gather, 0);
}

#if MICROAOT_DSP_ASM
/* The inner pixels of an output row of 3x3 windows at stride = dilation along x, three input rows from in_y on
 * against weights w (the filter's, or rows shifted for a row of windows clipped at the top or bottom): in pairs by
 * run_pairs_3x3_asm over the pair's run, an odd last one by edge_pixel. */
static __attribute__((noinline)) void run_row(const dw_layer* L, dw_pair* q, const int16_t* image, int32_t in_y,
                                              const uint32_t* w, int16_t* out) {
  const dw_params* p = L->p;
  const int32_t n = L->inner_end - L->inner_begin;
  const int16_t* a =
      image + ((ptrdiff_t)in_y * p->input_width + (ptrdiff_t)L->inner_begin * p->stride_width - p->pad_width) *
                  p->input_depth;
  int16_t* o = out + (ptrdiff_t)L->inner_begin * p->output_depth;
  if (n >= 2) {
    q->run.a = a, q->run.out = o, q->run.pairs = n / 2, q->run.w = w;
    run_pairs_3x3_asm(&q->run, q->gather == 0);
  }
  if (n % 2 != 0) edge_pixel(L, q, a + (n - 1) * L->pixel, w, 3, o + (ptrdiff_t)(n - 1) * p->output_depth);
}

/* run_row's weights and first input row for the windows of y (3x3 at stride = dilation along x, depth multiplier
 * 1), or NULL: every row inside, or one clipped at the top or bottom whose three rows one row inward lie inside. */
static const uint32_t* row_weights(const dw_layer* L, const dw_pair* q, const microaot_window* y, int32_t* in_y) {
  const dw_params* p = L->p;
  const int32_t dilation = p->dilation_height;
  if (!q->edges || p->filter_height != 3 || L->tap != L->pixel) return NULL;
  if (y->begin == 0 && y->end == 3) {
    *in_y = y->origin;
    return q->w;
  }
  if (y->begin == 1 && y->end == 3 && y->origin + 3 * dilation < p->input_height) {
    *in_y = y->origin + dilation;
    return q->rows[0];
  }
  if (y->begin == 0 && y->end == 2 && y->origin - dilation >= 0) {
    *in_y = y->origin - dilation;
    return q->rows[1];
  }
  return NULL;
}
#endif

/* One output row of the pair: `image` at the pair's input channel, `out` at its first channel. */
static void pair_row(const dw_layer* L, dw_pair* q, const int16_t* image, int32_t oy, int16_t* out) {
  const dw_params* p = L->p;
  const microaot_window y =
      microaot_window_of(oy, p->stride_height, p->pad_height, p->filter_height, p->dilation_height, p->input_height);
  const ptrdiff_t depth = p->output_depth;
  int32_t ox;
#if MICROAOT_DSP_ASM
  const uint32_t* rows;
  int32_t in_y;
#endif
  for (ox = 0; ox < p->output_width; ++ox) {
    if (ox == L->inner_begin) { /* the inner columns, then on after them */
#if MICROAOT_DSP_ASM
      if ((rows = row_weights(L, q, &y, &in_y)) != NULL) {
        run_row(L, q, image, in_y, rows, out);
      } else
#endif
      if (q->gather >= 0) {
        inner_gathered(L, q, image, &y, out);
      } else if (p->filter_width == 3 && L->tap == L->pixel) {
        inner_slide3(L, q, image, &y, out);
      } else {
        inner_any(L, q, image, &y, out);
      }
      ox = L->inner_end - 1;
      continue;
    }
    outer_pixel(L, q, image, &y, ox, out + (ptrdiff_t)ox * depth);
  }
}

/* Output rows [row_begin, row_end) (counted over all batches) pair by pair, row i at output + i * row_stride, or
 * with row_scratch each pair's part of a row into the scratch row first and then to its place (overlap). */
static void dw_rows(const dw_params* p, const int16_t* input, const int8_t* filter, const int64_t* bias,
                    int16_t* output, size_t row_stride, int32_t row_begin, int32_t row_end, int16_t* row_scratch) {
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
  const size_t depth = (size_t)p->output_depth;
  const dw_layer L = layer_of(p);
  dw_pair q;
  int32_t c, row, ox;
  for (c = 0; c < p->output_depth; c += 2) {
    pair_of(p, filter, bias, c, &q);
    q.run.o = &q.out;
    q.run.tap = L.tap * 2, q.run.next = (L.row - L.tap) * 2, q.run.a_next = (2 * L.pixel - 2 * L.row - L.tap) * 2;
    q.run.out_next = (ptrdiff_t)depth * 2, q.run.out_step = (ptrdiff_t)depth * 4;
    for (row = row_begin; row < row_end; ++row) {
      const int16_t* image = input + (size_t)(row / p->output_height) * image_size + q.in0;
      int16_t* out = output + (size_t)(row - row_begin) * row_stride;
      int16_t* dst = row_scratch != NULL ? row_scratch : out;
      pair_row(&L, &q, image, row % p->output_height, dst + c);
      if (row_scratch == NULL) continue;
      for (ox = 0; ox < p->output_width; ++ox) {
        memcpy(out + (size_t)ox * depth + (size_t)c, row_scratch + (size_t)ox * depth + (size_t)c,
               (q.pair ? 2 : 1) * sizeof(int16_t));
      }
    }
  }
}

void microaot_depthwise_conv_2d_s16(const microaot_depthwise_conv_2d_params_q* params, const int16_t* input,
                                    const int8_t* filter, const int64_t* bias, int16_t* output) {
  if (!microaot_fit_depthwise_conv_2d_s16_dsp(params)) {
    microaot_depthwise_conv_2d_s16_portable(params, input, filter, bias, output);
    return;
  }
  dw_rows(params, input, filter, bias, output, (size_t)params->output_width * (size_t)params->output_depth, 0,
          params->batches * params->output_height, NULL);
}

/* At depth multiplier 1 with output and input whole pixels apart every output element overwrites an input element
 * of its own channel, so a pair done row by row through the scratch row sees the inputs of whole-row order (as the
 * int8 DSP kernel's groups): pairs outermost. Otherwise whole rows, each through the scratch row. */
void microaot_depthwise_conv_2d_s16_overlap(const microaot_depthwise_conv_2d_params_q* params, const int16_t* input,
                                            const int8_t* filter, const int64_t* bias, int16_t* output,
                                            void* scratch) {
  const size_t row_size = (size_t)params->output_width * (size_t)params->output_depth;
  const int32_t rows = params->batches * params->output_height;
  const uintptr_t in_at = (uintptr_t)input, out_at = (uintptr_t)output;
  const uintptr_t distance = in_at > out_at ? in_at - out_at : out_at - in_at;
  int32_t row;
  if (!microaot_fit_depthwise_conv_2d_s16_dsp(params)) {
    microaot_depthwise_conv_2d_s16_overlap_portable(params, input, filter, bias, output, scratch);
    return;
  }
  if (params->depth_multiplier == 1 && distance % ((uintptr_t)params->output_depth * sizeof(int16_t)) == 0) {
    dw_rows(params, input, filter, bias, output, row_size, 0, rows, (int16_t*)scratch);
    return;
  }
  for (row = 0; row < rows; ++row) {
    dw_rows(params, input, filter, bias, (int16_t*)scratch, row_size, row, row + 1, NULL);
    memcpy(output + (size_t)row * row_size, scratch, row_size * sizeof(int16_t));
  }
}
