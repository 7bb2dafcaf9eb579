/* Runs on the emulated Cortex-M55 (tests/e2e/mve_qemu_test.cpp): the Helium DEPTHWISE_CONV_2D, AVERAGE_POOL_2D,
 * MAX_POOL_2D, linear ADD and MUL kernels (runtime/kernels/mve/) against the portable kernels, built from the
 * same sources under ref_* names, on random shapes the shared models do not have: depth multipliers 1 to 3 and
 * 8, strides 1 to 3, dilations 1 and 2, padding on either side, a single column or row, channel tails of every
 * length, both variants (plain and overlap, and overlap in place at the memory planner's shifts), left shifts;
 * pools up to a 16x16 window; broadcasting along either input and either dimension. Exits 0 when every output
 * byte matches, else names the first case that differs. */
#include <stdint.h>
#include <string.h>

#include "microaot/band_move.h"
#include "microaot/kernels/add.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/mul.h"
#include "microaot/kernels/pooling.h"
#include "semihost.h"

void ref_dw(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
            const int32_t* bias, int8_t* output);
void ref_average(const microaot_pool_2d_params_q* params, const int8_t* input, int8_t* output);
void ref_max(const microaot_pool_2d_params_q* params, const int8_t* input, int8_t* output);
void ref_add_linear(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                    const int32_t* form, int8_t* output);
void ref_mul(const microaot_mul_params_q* params, const int8_t* input1, const int8_t* input2, int8_t* output);

#define MAX_IN 4096
#define MAX_OUT 8192
#define MAX_CHANNELS 96

static int8_t input[MAX_IN], input2[MAX_IN], filter[MAX_IN], expected[MAX_OUT], got[MAX_OUT], scratch[MAX_OUT];
static int32_t bias[MAX_CHANNELS], multiplier[MAX_CHANNELS], shift[MAX_CHANNELS];

static uint32_t state = 2026u;
static uint32_t next(void) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}
static int32_t pick(int32_t lo, int32_t hi) { return lo + (int32_t)(next() % (uint32_t)(hi - lo + 1)); }
static void fill(int8_t* data, int32_t n) {
  int32_t i;
  for (i = 0; i < n; ++i) data[i] = (int8_t)pick(-128, 127);
}

static int differs(const char* what, int32_t n) {
  if (memcmp(expected, got, (size_t)n) == 0 && got[n] == 0x5a) return 0;
  semihost_print(what);
  semihost_print(": the Helium kernel differs from the portable one\n");
  return 1;
}

/* Output size along one axis for the input, filter, stride, dilation and the padding before and after. */
static int32_t out_size(int32_t in, int32_t f, int32_t stride, int32_t dilation, int32_t before, int32_t after) {
  const int32_t span = in + before + after - dilation * (f - 1);
  return span < 1 ? 0 : (span - 1) / stride + 1;
}

/* The largest shift of the output over the input a row-wise overlap kernel allows (row_wise_max_shift in
 * compiler/ops/in_place_bounds.h, which the memory planner applies). */
static int32_t row_wise_max_shift(const microaot_depthwise_conv_2d_params_q* p) {
  const int32_t in_row = p->input_width * p->input_depth, out_row = p->output_width * p->output_depth;
  const int32_t rows = p->batches * p->output_height;
  int32_t bound = p->batches * p->input_height * in_row, r;
  for (r = 0; r + 1 < rows; ++r) {
    const int32_t b = r / p->output_height, y = r % p->output_height;
    int32_t next = p->input_height;
    if (y + 1 < p->output_height) {
      next = (y + 1) * p->stride_height - p->pad_height;
      next = next < 0 ? 0 : next > p->input_height ? p->input_height : next;
    }
    if ((b * p->input_height + next) * in_row - (r + 1) * out_row < bound)
      bound = (b * p->input_height + next) * in_row - (r + 1) * out_row;
  }
  return bound;
}

/* The overlap variant with its output over its input as the planner places it: at the largest shift, a whole
 * number of pixels below it (the channel-by-channel order's case) or a few bytes below it. */
static int check_depthwise_in_place(const microaot_depthwise_conv_2d_params_q* p, const int32_t* bias_or_null,
                                    int32_t n) {
  static int8_t arena[3 * MAX_OUT];
  const int32_t in_size = p->batches * p->input_height * p->input_width * p->input_depth;
  int32_t shift = row_wise_max_shift(p);
  const int32_t kind = pick(0, 2);
  if (kind == 1) shift -= ((shift % p->input_depth) + p->input_depth) % p->input_depth;
  if (kind == 2) shift -= pick(0, 3);
  if (shift < -MAX_OUT || shift > in_size) return 0;
  memcpy(arena + MAX_OUT, input, (size_t)in_size);
  microaot_depthwise_conv_2d_s8_overlap(p, arena + MAX_OUT, filter, bias_or_null, arena + MAX_OUT + shift, scratch);
  memcpy(got, arena + MAX_OUT + shift, (size_t)n); /* got[n] keeps its guard: the bytes past are input */
  return differs("DEPTHWISE_CONV_2D in place", n);
}

static int check_depthwise(int32_t round) {
  microaot_depthwise_conv_2d_params_q p;
  int32_t c, n;
  const int32_t multipliers[4] = {1, 2, 3, 8};
  memset(&p, 0, sizeof p);
  p.batches = pick(1, 2);
  p.input_depth = pick(1, 20);
  p.depth_multiplier = round % 3 == 0 ? multipliers[pick(0, 3)] : 1;
  p.output_depth = p.input_depth * p.depth_multiplier;
  if (p.output_depth > MAX_CHANNELS) p.input_depth = p.output_depth = MAX_CHANNELS / p.depth_multiplier;
  p.output_depth = p.input_depth * p.depth_multiplier;
  p.filter_height = pick(1, 4);
  p.filter_width = pick(1, 4);
  p.stride_height = pick(1, 3);
  p.stride_width = pick(1, 3);
  p.dilation_height = pick(1, 2);
  p.dilation_width = pick(1, 2);
  p.input_height = pick(1, 10);
  p.input_width = pick(1, 10);
  p.pad_height = pick(0, p.filter_height - 1);
  p.pad_width = pick(0, p.filter_width - 1);
  p.output_height = out_size(p.input_height, p.filter_height, p.stride_height, p.dilation_height, p.pad_height,
                             pick(0, p.filter_height - 1));
  p.output_width = out_size(p.input_width, p.filter_width, p.stride_width, p.dilation_width, p.pad_width,
                            pick(0, p.filter_width - 1));
  n = p.batches * p.output_height * p.output_width * p.output_depth;
  if (n == 0 || n >= MAX_OUT || p.batches * p.input_height * p.input_width * p.input_depth > MAX_IN) return 0;
  p.input_offset = pick(-127, 128);
  p.output_offset = pick(-128, 127);
  p.activation_min = round % 4 == 0 ? pick(-128, 0) : -128;
  p.activation_max = round % 5 == 0 ? pick(1, 127) : 127;
  for (c = 0; c < p.output_depth; ++c) {
    bias[c] = pick(-40000, 40000);
    multiplier[c] = (int32_t)(0x40000000u + (next() << 6));
    shift[c] = round % 7 == 0 ? pick(-3, 2) : pick(-12, -6);
  }
  p.output_multiplier = multiplier;
  p.output_shift = shift;
  fill(input, p.batches * p.input_height * p.input_width * p.input_depth);
  fill(filter, p.filter_height * p.filter_width * p.output_depth);
  ref_dw(&p, input, filter, round % 6 == 5 ? NULL : bias, expected);
  got[n] = 0x5a;
  if (round % 4 == 3) return check_depthwise_in_place(&p, round % 6 == 5 ? NULL : bias, n);
  if (round % 2 == 0) {
    microaot_depthwise_conv_2d_s8(&p, input, filter, round % 6 == 5 ? NULL : bias, got);
  } else {
    microaot_depthwise_conv_2d_s8_overlap(&p, input, filter, round % 6 == 5 ? NULL : bias, got, scratch);
  }
  return differs("DEPTHWISE_CONV_2D", n);
}

static int check_pool(int32_t round) {
  microaot_pool_2d_params_q p;
  int32_t n;
  memset(&p, 0, sizeof p);
  p.batches = pick(1, 2);
  p.channels = pick(1, 40);
  p.input_height = pick(1, 16);
  p.input_width = pick(1, 16);
  if (round % 5 == 0) { /* global */
    p.filter_height = p.input_height;
    p.filter_width = p.input_width;
  } else {
    p.filter_height = pick(1, 4);
    p.filter_width = pick(1, 4);
    p.padding_height = pick(0, p.filter_height - 1);
    p.padding_width = pick(0, p.filter_width - 1);
  }
  p.stride_height = pick(1, 3);
  p.stride_width = pick(1, 3);
  p.output_height = out_size(p.input_height, p.filter_height, p.stride_height, 1, p.padding_height, p.padding_height);
  p.output_width = out_size(p.input_width, p.filter_width, p.stride_width, 1, p.padding_width, p.padding_width);
  n = p.batches * p.output_height * p.output_width * p.channels;
  if (n == 0 || n >= MAX_OUT || p.batches * p.input_height * p.input_width * p.channels > MAX_IN) return 0;
  p.activation_min = round % 4 == 0 ? pick(-128, 0) : -128;
  p.activation_max = round % 3 == 0 ? pick(1, 127) : 127;
  p.ties_to_even = round % 9 == 0;
  fill(input, p.batches * p.input_height * p.input_width * p.channels);
  got[n] = 0x5a;
  if (round % 2 == 0) {
    ref_average(&p, input, expected);
    microaot_average_pool_2d_s8(&p, input, got);
    return differs("AVERAGE_POOL_2D", n);
  }
  ref_max(&p, input, expected);
  microaot_max_pool_2d_s8_overlap(&p, input, got, scratch);
  return differs("MAX_POOL_2D", n);
}

/* A broadcast of two inputs over an output [rows, cols]: same layouts (flat), or either input broadcast along
 * either dimension (stride 0), or a transposed read (stride rows along the columns). */
static void broadcast(int32_t round, int32_t* shape, int32_t* s1, int32_t* s2, int32_t* num_dims, int32_t* flat) {
  const int32_t rows = pick(1, 6), cols = pick(1, 37);
  shape[0] = rows;
  shape[1] = cols;
  *flat = rows * cols;
  *num_dims = round % 4 == 0 ? 0 : 2;
  s1[0] = cols;
  s1[1] = 1;
  s2[0] = cols;
  s2[1] = 1;
  switch (round % 4) {
    case 1: s2[0] = 0; break;             /* input 2: one row for every row */
    case 2: s1[1] = 0; s1[0] = 1; break;  /* input 1: one value per row */
    case 3: s2[0] = 1; s2[1] = rows; break; /* input 2 read transposed */
    default: break;
  }
}

static int check_elementwise(int32_t round) {
  int32_t shape[2], s1[2], s2[2];
  microaot_add_params_q a;
  microaot_mul_params_q m;
  int32_t form[3], n;
  memset(&a, 0, sizeof a);
  memset(&m, 0, sizeof m);
  broadcast(round, shape, s1, s2, &a.num_dims, &a.flat_size);
  n = a.flat_size;
  a.output_shape = shape;
  a.input1_strides = s1;
  a.input2_strides = s2;
  fill(input, n);
  fill(input2, n);
  got[n] = 0x5a;
  if (round % 2 == 0) {
    form[0] = pick(-(1 << 20), 1 << 20);
    form[1] = pick(-(1 << 20), 1 << 20);
    form[2] = pick(-(1 << 24), 1 << 24);
    a.activation_min = round % 3 == 0 ? pick(-128, 0) : -128;
    a.activation_max = round % 5 == 0 ? pick(1, 127) : 127;
    ref_add_linear(&a, input, input2, form, expected);
    microaot_add_s8_linear(&a, input, input2, form, got);
    return differs("ADD (linear)", n);
  }
  m.flat_size = a.flat_size;
  m.num_dims = a.num_dims;
  m.output_shape = shape;
  m.input1_strides = s1;
  m.input2_strides = s2;
  m.input1_offset = pick(-127, 128);
  m.input2_offset = pick(-127, 128);
  m.output_multiplier = (int32_t)(0x40000000u + (next() << 6));
  m.output_shift = round % 7 == 1 ? pick(0, 3) : pick(-20, -1);
  m.output_offset = pick(-128, 127);
  m.activation_min = round % 3 == 0 ? pick(-128, 0) : -128;
  m.activation_max = round % 5 == 0 ? pick(1, 127) : 127;
  ref_mul(&m, input, input2, expected);
  microaot_mul_s8(&m, input, input2, got);
  return differs("MUL", n);
}

/* The fused bands' line-buffer move (microaot/band_move.h) against memmove: moves down by less than their
 * length (overlapping, the band schedule's), by more, and up (its memmove path), any length and alignment. */
static int check_band_move(int32_t round) {
  const int32_t n = pick(0, 2000), from = pick(0, MAX_IN - n);
  const int32_t to = round % 3 == 0 ? pick(0, MAX_IN - n) : from - pick(0, from < 40 ? from : 40);
  fill(input, MAX_IN);
  memcpy(expected, input, MAX_IN);
  memmove(expected + to, expected + from, (size_t)n);
  memcpy(got, input, MAX_IN);
  microaot_band_move(got + to, got + from, (size_t)n);
  if (memcmp(expected, got, MAX_IN) == 0) return 0;
  semihost_print("band move: differs from memmove\n");
  return 1;
}

int main(void) {
  int32_t round;
  for (round = 0; round < 600; ++round) {
    if (check_depthwise(round) || check_pool(round) || check_elementwise(round)) return 1;
  }
  for (round = 0; round < 200; ++round) {
    if (check_band_move(round)) return 1;
  }
  semihost_print("Helium kernels: 600 rounds identical, 200 band moves as memmove\n");
  return 0;
}
