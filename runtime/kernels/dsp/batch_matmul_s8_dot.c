/* int8 BATCH_MATMUL with the DSP extension, bit-exact with the portable kernel. Both operands are activations, so
 * the layout the packed FULLY_CONNECTED kernels get from the compiler is made at run time in the planned scratch
 * (microaot/fit/batch_matmul.h): the RHS columns widened to int16 with their offset added, in pairs, once per
 * batch matrix (not again while consecutive batches share it, a broadcast RHS), and each pair of LHS rows the
 * same way; then the packed kernels' int16 loop (microaot/internal/packed_dot.h) takes two rows against two
 * columns, 11 instructions per 16 MACs. Any strides: adj_x and adj_y only change how the widening reads. Integer
 * sums do not depend on the order; the output step is the portable one's. */
#include <stddef.h>

#define MICROAOT_PACKED_WIDE_WEIGHTS 1
#include "microaot/fit/batch_matmul.h"
#include "microaot/internal/dsp_requant.h"
#include "microaot/internal/packed_dot.h"
#include "microaot/kernels/batch_matmul.h"

/* The word of x[0], x[stride], x[2 stride], x[3 stride] (byte 0 the first). */
static inline uint32_t gather4(const int8_t* x, ptrdiff_t stride) {
  return (uint32_t)(uint8_t)x[0] | (uint32_t)(uint8_t)x[stride] << 8 | (uint32_t)(uint8_t)x[2 * stride] << 16 |
         (uint32_t)(uint8_t)x[3 * stride] << 24;
}

/* The last rem (1 to 3) elements x[k * stride] plus `offset` as a group's two words, zero lanes past them. */
static void tail_lanes(const int8_t* x, ptrdiff_t stride, int32_t rem, int32_t offset, uint32_t* dst) {
  const int32_t x1 = rem > 1 ? x[stride] + offset : 0, x2 = rem > 2 ? x[2 * stride] + offset : 0;
  dst[0] = microaot_dsp_pack16(x[0] + offset, x2);
  dst[1] = microaot_dsp_pack16(x1, 0);
}

/* n elements x[k * stride] plus `offset` as int16 lanes into words dst[0], dst[1] of every four (group g at
 * dst + 4 g): (x0, x2) then (x1, x3), the packed loops' order; the lanes past n are zeros. */
static void widen_lanes(const int8_t* x, ptrdiff_t stride, int32_t n, int32_t offset, uint32_t* dst) {
  const uint32_t off = microaot_dsp_pack16(offset, offset);
  const int32_t whole = n / 4;
  int32_t g;
  if (stride == 1) {
    for (g = 0; g < whole; ++g, x += 4, dst += 4) {
      const uint32_t word = microaot_dsp_load4(x);
      dst[0] = microaot_dsp_sxtab16(off, word);
      dst[1] = microaot_dsp_sxtab16_ror8(off, word);
    }
  } else {
    for (g = 0; g < whole; ++g, x += 4 * stride, dst += 4) {
      const uint32_t word = gather4(x, stride);
      dst[0] = microaot_dsp_sxtab16(off, word);
      dst[1] = microaot_dsp_sxtab16_ror8(off, word);
    }
  }
  if (n % 4 != 0) tail_lanes(x, stride, n % 4, offset, dst);
}

/* Four adjacent columns x[k * stride + c], c = 0..3 (an RHS without adj_y), into two pairs' groups: per four rows
 * one word load each, SXTAB16 (the offset) and the lanes regrouped by column with PKHBT and PKHTB. */
static void widen_quad(const int8_t* x, ptrdiff_t stride, int32_t n, int32_t offset, uint32_t* pair0,
                       uint32_t* pair1) {
  const uint32_t off = microaot_dsp_pack16(offset, offset);
  const int32_t whole = n / 4;
  int32_t g, c;
  for (g = 0; g < whole; ++g, x += 4 * stride, pair0 += 4, pair1 += 4) {
    const uint32_t a = microaot_dsp_load4(x), b = microaot_dsp_load4(x + stride);
    const uint32_t cw = microaot_dsp_load4(x + 2 * stride), d = microaot_dsp_load4(x + 3 * stride);
    const uint32_t a02 = microaot_dsp_sxtab16(off, a), a13 = microaot_dsp_sxtab16_ror8(off, a);
    const uint32_t b02 = microaot_dsp_sxtab16(off, b), b13 = microaot_dsp_sxtab16_ror8(off, b);
    const uint32_t c02 = microaot_dsp_sxtab16(off, cw), c13 = microaot_dsp_sxtab16_ror8(off, cw);
    const uint32_t d02 = microaot_dsp_sxtab16(off, d), d13 = microaot_dsp_sxtab16_ror8(off, d);
    pair0[0] = microaot_dsp_pkhbt(a02, c02); /* column 0: rows 0 and 2, then 1 and 3 */
    pair0[1] = microaot_dsp_pkhbt(b02, d02);
    pair0[2] = microaot_dsp_pkhbt(a13, c13); /* column 1 */
    pair0[3] = microaot_dsp_pkhbt(b13, d13);
    pair1[0] = microaot_dsp_pkhtb(a02, c02); /* column 2 */
    pair1[1] = microaot_dsp_pkhtb(b02, d02);
    pair1[2] = microaot_dsp_pkhtb(a13, c13); /* column 3 */
    pair1[3] = microaot_dsp_pkhtb(b13, d13);
  }
  if (n % 4 == 0) return;
  for (c = 0; c < 4; ++c) tail_lanes(x + c, stride, n % 4, offset, (c < 2 ? pair0 : pair1) + 2 * (c % 2));
}

/* The second of a pair absent (an odd last row or column): zero lanes. */
static void zero_lanes(int64_t groups, uint32_t* dst) {
  int64_t g;
  for (g = 0; g < groups; ++g, dst += 4) dst[0] = dst[1] = 0;
}

/* Operands x0 and x1 (NULL: none) of a pair, each n elements of stride `stride`, into the pair's groups. */
static void widen_pair(const int8_t* x0, const int8_t* x1, ptrdiff_t stride, const microaot_batch_matmul_params_q* p,
                       int32_t offset, uint32_t* dst) {
  widen_lanes(x0, stride, p->depth, offset, dst);
  if (x1 != NULL) {
    widen_lanes(x1, stride, p->depth, offset, dst + 2);
  } else {
    zero_lanes(microaot_bmm_dot_groups(p), dst + 2);
  }
}

/* The portable kernel's output step, whose clamp is the int8 range: the narrow DSP rescale
 * (microaot/internal/dsp_requant.h), exact there under microaot_fit_bmm_dot's bounds, with the output offset
 * folded into its rounding term (offset * 2^right added before the right shift: |sum| < 2^31 there). */
static microaot_dsp_requant bmm_step(const microaot_batch_matmul_params_q* p) {
  microaot_dsp_requant q = microaot_dsp_requant_of(p->output_multiplier, p->output_shift);
  q.round += p->output_offset * ((int32_t)1 << q.right);
  return q;
}

static inline int8_t bmm_output(const microaot_dsp_requant* q, int32_t acc) {
  return (int8_t)microaot_dsp_ssat8(microaot_dsp_requant_narrow(q, acc));
}

/* One [rows, cols] output matrix: each pair of LHS rows widened, then against every widened RHS column pair. A
 * lone last row pairs with zero lanes and writes its partner's outputs over its own first (out1 = out0); a lone
 * last column takes the pair's first outputs. */
static void bmm_matrix(const microaot_batch_matmul_params_q* p, const int8_t* lhs, const int32_t* columns,
                       uint32_t* rows, int8_t* out) {
  const int32_t groups = (int32_t)microaot_bmm_dot_groups(p), whole_pairs = p->cols / 2;
  const microaot_dsp_requant q = bmm_step(p);
  int32_t i, j, acc[4];
  for (i = 0; i < p->rows; i += 2) {
    const int both = i + 1 < p->rows;
    const int8_t* row = lhs + (ptrdiff_t)i * p->lhs_row_stride;
    const int32_t* pair = columns;
    int8_t* out0 = out + (ptrdiff_t)i * p->cols;
    int8_t* out1 = both ? out0 + p->cols : out0;
    widen_pair(row, both ? row + p->lhs_row_stride : NULL, p->lhs_depth_stride, p, p->lhs_offset, rows);
    for (j = 0; j < whole_pairs; ++j, out0 += 2, out1 += 2) {
      acc[0] = acc[1] = acc[2] = acc[3] = 0;
      pair = microaot_packed_dot_2x2(pair, rows, groups, acc);
      out1[0] = bmm_output(&q, acc[2]);
      out1[1] = bmm_output(&q, acc[3]);
      out0[0] = bmm_output(&q, acc[0]);
      out0[1] = bmm_output(&q, acc[1]);
    }
    if (p->cols % 2 != 0) {
      acc[0] = acc[1] = acc[2] = acc[3] = 0;
      microaot_packed_dot_2x2(pair, rows, groups, acc);
      out1[0] = bmm_output(&q, acc[2]);
      out0[0] = bmm_output(&q, acc[0]);
    }
  }
}

/* The RHS matrix's columns widened in pairs; adjacent ones (no adj_y) four at a time. */
static void widen_columns(const microaot_batch_matmul_params_q* p, const int8_t* rhs, uint32_t* dst) {
  const int64_t pair_words = 4 * microaot_bmm_dot_groups(p);
  int32_t j = 0;
  if (p->rhs_col_stride == 1) {
    for (; j + 4 <= p->cols; j += 4, dst += 2 * pair_words) {
      widen_quad(rhs + j, p->rhs_depth_stride, p->depth, p->rhs_offset, dst, dst + pair_words);
    }
  }
  for (; j < p->cols; j += 2, dst += pair_words) {
    const int8_t* col = rhs + (ptrdiff_t)j * p->rhs_col_stride;
    widen_pair(col, j + 1 < p->cols ? col + p->rhs_col_stride : NULL, p->rhs_depth_stride, p, p->rhs_offset, dst);
  }
}

void microaot_batch_matmul_s8_dot(const microaot_batch_matmul_params_q* params, const int8_t* lhs,
                                  const int8_t* rhs, int8_t* output, void* scratch) {
  const ptrdiff_t matrix = (ptrdiff_t)params->rows * params->cols;
  uint32_t* const columns = (uint32_t*)scratch;
  uint32_t* const rows = columns + microaot_bmm_dot_rhs_bytes(params) / 4;
  int32_t index[MICROAOT_WALK_MAX_DIMS] = {0};
  const int8_t* widened = NULL; /* the RHS matrix now in columns */
  int8_t* out = output;
  do {
    const int8_t* r = rhs + microaot_walk_offset(params->batch_dims, index, params->rhs_batch_strides);
    if (r != widened) widen_columns(params, r, columns);
    widened = r;
    bmm_matrix(params, lhs + microaot_walk_offset(params->batch_dims, index, params->lhs_batch_strides),
               (const int32_t*)columns, rows, out);
    out += matrix;
  } while (microaot_walk_next(params->batch_dims, params->batch_shape, index));
}
