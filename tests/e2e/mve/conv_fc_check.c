/* Runs on the emulated Cortex-M55 (tests/e2e/mve_qemu_test.cpp): the Helium CONV_2D (both variants) and
 * FULLY_CONNECTED kernels against the portable ones on random layers chosen to reach every path of the vector
 * code: 1x1 rows of 16 * k elements and others (the predicated tail), odd and even channel counts (the channel
 * pairs' loop and the odd last channel), one to three pixels per row (the second pixel of a pair absent), a
 * single output pixel (the FULLY_CONNECTED loop), k x k windows with padding, strides and dilation (the
 * gather), the overlap variant in place, shifts of both signs (both forms of the output step), with and without bias; FULLY_CONNECTED of
 * one to many units and batches. The folded-bias kernels (conv_2d_s8_mve, both variants, and
 * fully_connected_s8_mve) over the folded biases the compiler would give them, on the same layers, and grouped
 * convolutions (their plain C path). The kernel's own file is included for its static portable fallback. Exits 0
 * when every output byte matches, else prints the first difference and exits 1. */
#include <stdint.h>
#include <string.h>

#include "../../../runtime/kernels/mve/conv_2d_s8.c"
#include "microaot/kernels/fully_connected.h"
#include "microaot/kernels/mve_folded.h"
#include "semihost.h"

#if !MICROAOT_MVE
#error "build for a Helium target (-mcpu=cortex-m55)"
#endif

void microaot_fully_connected_s8_portable(const microaot_fully_connected_params_q* params, const int8_t* input,
                                          const int8_t* weights, const int32_t* bias, int8_t* output);

#define MAX_INPUT 4096
#define MAX_FILTER 16384
#define MAX_CHANNELS 96
#define MAX_OUTPUT 4096

static int8_t input[MAX_INPUT], filter[MAX_FILTER], expected[MAX_OUTPUT + 1], actual[MAX_OUTPUT + 1];
static int8_t scratch[MAX_OUTPUT];
static int32_t bias[MAX_CHANNELS], multiplier[MAX_CHANNELS], shift[MAX_CHANNELS], folded[MAX_CHANNELS];

static uint32_t state = 2024u;
static uint32_t next(void) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}
static int32_t pick(int32_t low, int32_t high) { return low + (int32_t)(next() % (uint32_t)(high - low + 1)); }

static void fill(int8_t* v, int32_t n) {
  int32_t i;
  for (i = 0; i < n; ++i) v[i] = (int8_t)pick(-128, 127);
}

/* Per-channel requantization: right shifts only (the output step's short form) or some left ones. */
static void requant(int32_t channels, int left) {
  int32_t c;
  for (c = 0; c < channels; ++c) {
    multiplier[c] = (int32_t)((1u << 30) + (next() << 5)); /* in [2^30, 2^31) */
    shift[c] = left && next() % 3 == 0 ? pick(0, 2) : pick(-12, -6);
    bias[c] = pick(-20000, 20000);
  }
}

/* The compiler's folded bias (compiler/ops/mve_weights.cpp): bias + input_offset * each channel's weight sum. */
static void fold(const int32_t* b, int32_t channels, int32_t n, int32_t input_offset) {
  int32_t c, k;
  for (c = 0; c < channels; ++c) {
    uint32_t sum = 0;
    for (k = 0; k < n; ++k) sum += (uint32_t)(int32_t)filter[c * n + k];
    folded[c] = (int32_t)((uint32_t)(b != NULL ? b[c] : 0) + sum * (uint32_t)input_offset);
  }
}

static int differs(int32_t n, const char* what) {
  if (memcmp(expected, actual, (size_t)n + 1) == 0) return 0;
  semihost_print(what);
  semihost_print(": the Helium kernel differs from the portable one\n");
  return 1;
}

static int conv_round(int32_t round) {
  microaot_conv_2d_params_q p;
  const int pointwise = round % 2 == 0;
  const int32_t depth = pointwise ? (round % 3 == 0 ? 16 * pick(1, 6) : pick(1, 70)) : pick(1, 12);
  int32_t size, out_size;
  memset(&p, 0, sizeof p);
  p.batches = pick(1, 2);
  p.input_height = pick(1, 6);
  p.input_width = pick(1, 7);
  p.input_depth = p.filter_depth = depth;
  p.filter_height = pointwise ? 1 : pick(1, 4);
  p.filter_width = pointwise ? 1 : pick(1, 4);
  p.stride_height = pick(1, 2);
  p.stride_width = pick(1, 2);
  p.dilation_height = pointwise || next() % 4 != 0 ? 1 : 2;
  p.dilation_width = pointwise || next() % 4 != 0 ? 1 : 2;
  p.pad_height = pointwise ? 0 : pick(0, p.filter_height - 1);
  p.pad_width = pointwise ? 0 : pick(0, p.filter_width - 1);
  {
    const int32_t span_h = (p.filter_height - 1) * p.dilation_height + 1;
    const int32_t span_w = (p.filter_width - 1) * p.dilation_width + 1;
    if (p.input_height + 2 * p.pad_height < span_h) p.input_height = span_h;
    if (p.input_width + 2 * p.pad_width < span_w) p.input_width = span_w;
    p.output_height = (p.input_height + 2 * p.pad_height - span_h) / p.stride_height + 1;
    p.output_width = (p.input_width + 2 * p.pad_width - span_w) / p.stride_width + 1;
  }
  p.output_depth = round % 5 == 0 ? pick(1, 5) : pick(1, MAX_CHANNELS);
  if (round % 6 == 5) { /* two groups: the input twice the filter's depth, the channels even */
    p.input_depth = 2 * depth;
    p.output_depth += p.output_depth & 1;
  }
  p.input_offset = pick(-127, 128);
  p.output_offset = pick(-128, 127);
  p.activation_min = next() % 4 == 0 ? 0 : -128;
  p.activation_max = 127;
  p.output_multiplier = multiplier;
  p.output_shift = shift;
  size = p.batches * p.input_height * p.input_width * p.input_depth;
  out_size = p.batches * p.output_height * p.output_width * p.output_depth;
  if (size > MAX_INPUT || out_size > MAX_OUTPUT ||
      p.output_depth * p.filter_height * p.filter_width * depth > MAX_FILTER) {
    return 0; /* too large for the buffers: another round */
  }
  fill(input, size);
  fill(filter, p.output_depth * p.filter_height * p.filter_width * depth);
  requant(p.output_depth, round % 4 == 1);
  expected[out_size] = actual[out_size] = 0x5a;
  conv_portable(&p, input, filter, round % 7 == 3 ? NULL : bias, expected);
  microaot_conv_2d_s8(&p, input, filter, round % 7 == 3 ? NULL : bias, actual);
  if (differs(out_size, "CONV_2D")) return 1;
  memset(actual, 0, (size_t)out_size);
  microaot_conv_2d_s8_overlap(&p, input, filter, round % 7 == 3 ? NULL : bias, actual, scratch);
  if (differs(out_size, "CONV_2D (overlap)")) return 1;
  fold(round % 7 == 3 ? NULL : bias, p.output_depth, p.filter_height * p.filter_width * depth, p.input_offset);
  memset(actual, 0, (size_t)out_size);
  microaot_conv_2d_s8_mve(&p, input, filter, folded, actual);
  if (differs(out_size, "CONV_2D (folded bias)")) return 1;
  memset(actual, 0, (size_t)out_size);
  microaot_conv_2d_s8_mve_overlap(&p, input, filter, folded, actual, scratch);
  if (differs(out_size, "CONV_2D (folded bias, overlap)")) return 1;
  if (pointwise && p.stride_height == 1 && p.stride_width == 1 && p.output_depth <= depth) {
    /* in place, as the compiler calls the overlap variant: the output over the input it reads */
    static int8_t image[MAX_INPUT + 1];
    memcpy(image, input, (size_t)size);
    microaot_conv_2d_s8_overlap(&p, image, filter, round % 7 == 3 ? NULL : bias, image, scratch);
    memcpy(actual, image, (size_t)out_size);
    if (differs(out_size, "CONV_2D (overlap, in place)")) return 1;
    memcpy(image, input, (size_t)size);
    microaot_conv_2d_s8_mve_overlap(&p, image, filter, folded, image, scratch);
    memcpy(actual, image, (size_t)out_size);
    return differs(out_size, "CONV_2D (folded bias, overlap, in place)");
  }
  return 0;
}

static int fc_round(int32_t round) {
  microaot_fully_connected_params_q p;
  int32_t out_size;
  memset(&p, 0, sizeof p);
  p.batches = round % 3 == 0 ? pick(2, 4) : 1;
  p.input_depth = round % 4 == 0 ? 16 * pick(1, 8) : pick(1, 200);
  p.output_depth = round % 5 == 0 ? pick(1, 4) : pick(1, MAX_CHANNELS);
  p.input_offset = pick(-127, 128);
  p.output_offset = pick(-128, 127);
  p.activation_min = -128;
  p.activation_max = next() % 4 == 0 ? 50 : 127;
  p.output_multiplier = multiplier;
  p.output_shift = shift;
  out_size = p.batches * p.output_depth;
  fill(input, p.batches * p.input_depth);
  fill(filter, p.output_depth * p.input_depth);
  requant(p.output_depth, round % 4 == 1);
  expected[out_size] = actual[out_size] = 0x5a;
  microaot_fully_connected_s8_portable(&p, input, filter, round % 7 == 3 ? NULL : bias, expected);
  microaot_fully_connected_s8(&p, input, filter, round % 7 == 3 ? NULL : bias, actual);
  if (differs(out_size, "FULLY_CONNECTED")) return 1;
  fold(round % 7 == 3 ? NULL : bias, p.output_depth, p.input_depth, p.input_offset);
  memset(actual, 0, (size_t)out_size);
  microaot_fully_connected_s8_mve(&p, input, filter, folded, actual);
  return differs(out_size, "FULLY_CONNECTED (folded bias)");
}

int main(void) {
  int32_t round;
  for (round = 0; round < 400; ++round) {
    if (conv_round(round) || fc_round(round)) return 1;
  }
  semihost_print("conv and fully connected: 400 rounds each identical\n");
  return 0;
}
