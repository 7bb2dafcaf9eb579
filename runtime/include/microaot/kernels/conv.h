/* 2-D convolution and depthwise convolution kernels (NHWC activations; OHWI conv filters, 1HWC depthwise
 * filters). Every field of the params structs is computed by the compiler; the int8 and int16 kernels are
 * bit-exact with TFLite Micro's reference kernels (per-channel requantization, taps outside the image skipped). */
#ifndef MICROAOT_KERNELS_CONV_H
#define MICROAOT_KERNELS_CONV_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/palette.h"
#include "microaot/params.h"
#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The window geometry every convolution kernel shares (NHWC input and output). */
#define MICROAOT_CONV_INPUT_FIELDS(X) \
  X(I32, batches)                     \
  X(I32, input_height)                \
  X(I32, input_width)                 \
  X(I32, input_depth)                 \
  X(I32, filter_height)               \
  X(I32, filter_width)
#define MICROAOT_CONV_WINDOW_FIELDS(X) \
  X(I32, stride_height)                \
  X(I32, stride_width)                 \
  X(I32, dilation_height)              \
  X(I32, dilation_width)               \
  X(I32, pad_height) /* padding before the first row */ \
  X(I32, pad_width)  /* padding before the first column */
#define MICROAOT_CONV_OUTPUT_FIELDS(X) \
  X(I32, output_height)                \
  X(I32, output_width)                 \
  X(I32, output_depth)

/* Integer requantization (int8 and int16): offsets, clamp and one multiplier/shift per output channel
 * (per-tensor filters repeat one value); shift > 0 is a left shift, as in TFLite's QuantizeMultiplier.
 * int16 tensors are symmetric: their kernels take no input offset and the output offset is 0. */
#define MICROAOT_CONV_QUANT_FIELDS(X)                              \
  X(I32, input_offset)  /* -input zero point */                    \
  X(I32, output_offset) /* +output zero point */                   \
  X(I32, activation_min)                                           \
  X(I32, activation_max)                                           \
  X(I32_ARRAY, output_multiplier) /* [output_depth] */             \
  X(I32_ARRAY, output_shift)      /* [output_depth] */
#define MICROAOT_CONV_FLOAT_FIELDS(X) \
  X(F32, activation_min)              \
  X(F32, activation_max)
/* Hybrid (float32 activations, int8 weights): the float fields and each output channel's weight scale (a
 * per-tensor scale is repeated), by which the channel's sum of input * int8 weight is multiplied. */
#define MICROAOT_CONV_HYBRID_FIELDS(X) \
  MICROAOT_CONV_FLOAT_FIELDS(X)        \
  X(F32_ARRAY, filter_scale) /* [output_depth] */

/* CONV_2D. Grouped convolution when filter_depth < input_depth (groups = input_depth / filter_depth). */
#define MICROAOT_CONV_2D_FIELDS(X) \
  MICROAOT_CONV_INPUT_FIELDS(X)    \
  X(I32, filter_depth)             \
  MICROAOT_CONV_OUTPUT_FIELDS(X)   \
  MICROAOT_CONV_WINDOW_FIELDS(X)
#define MICROAOT_FIELDS_conv_2d_params_q(X) MICROAOT_CONV_2D_FIELDS(X) MICROAOT_CONV_QUANT_FIELDS(X)
#define MICROAOT_FIELDS_conv_2d_params_f32(X) MICROAOT_CONV_2D_FIELDS(X) MICROAOT_CONV_FLOAT_FIELDS(X)
#define MICROAOT_FIELDS_conv_2d_params_hybrid(X) MICROAOT_CONV_2D_FIELDS(X) MICROAOT_CONV_HYBRID_FIELDS(X)
MICROAOT_DEFINE_PARAMS(conv_2d_params_q)
MICROAOT_DEFINE_PARAMS(conv_2d_params_f32)
MICROAOT_DEFINE_PARAMS(conv_2d_params_hybrid)

/* DEPTHWISE_CONV_2D: output channel c reads input channel c / depth_multiplier;
 * output_depth = input_depth * depth_multiplier; per-channel arrays have output_depth entries. */
#define MICROAOT_DEPTHWISE_CONV_2D_FIELDS(X) \
  MICROAOT_CONV_INPUT_FIELDS(X)              \
  MICROAOT_CONV_OUTPUT_FIELDS(X)             \
  X(I32, depth_multiplier)                   \
  MICROAOT_CONV_WINDOW_FIELDS(X)
#define MICROAOT_FIELDS_depthwise_conv_2d_params_q(X) \
  MICROAOT_DEPTHWISE_CONV_2D_FIELDS(X) MICROAOT_CONV_QUANT_FIELDS(X)
#define MICROAOT_FIELDS_depthwise_conv_2d_params_f32(X) \
  MICROAOT_DEPTHWISE_CONV_2D_FIELDS(X) MICROAOT_CONV_FLOAT_FIELDS(X)
#define MICROAOT_FIELDS_depthwise_conv_2d_params_hybrid(X) \
  MICROAOT_DEPTHWISE_CONV_2D_FIELDS(X) MICROAOT_CONV_HYBRID_FIELDS(X)
MICROAOT_DEFINE_PARAMS(depthwise_conv_2d_params_q)
MICROAOT_DEFINE_PARAMS(depthwise_conv_2d_params_f32)
MICROAOT_DEFINE_PARAMS(depthwise_conv_2d_params_hybrid)

/* bias may be NULL (no bias). Buffers must not overlap the output (see the overlap flavors below).
 * int16 activations take int8 weights and an int64 bias, accumulate in 64 bits and requantize with
 * TFLite's 16x8 rounding; the _bias32 flavor takes an int32 bias and accumulates and requantizes in 32 bits
 * as TFLM does for int16 models quantized with a 32-bit bias. */
void microaot_conv_2d_s8(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                         const int32_t* bias, int8_t* output);
void microaot_conv_2d_s16(const microaot_conv_2d_params_q* params, const int16_t* input, const int8_t* filter,
                          const int64_t* bias, int16_t* output);
void microaot_conv_2d_s16_bias32(const microaot_conv_2d_params_q* params, const int16_t* input,
                                 const int8_t* filter, const int32_t* bias, int16_t* output);
void microaot_conv_2d_f32(const microaot_conv_2d_params_f32* params, const float* input, const float* filter,
                          const float* bias, float* output);
/* Hybrid: float32 input, bias and output, int8 weights (the _s8w flavors). */
void microaot_conv_2d_f32_s8w(const microaot_conv_2d_params_hybrid* params, const float* input, const int8_t* filter,
                              const float* bias, float* output);
void microaot_depthwise_conv_2d_f32_s8w(const microaot_depthwise_conv_2d_params_hybrid* params, const float* input,
                                        const int8_t* filter, const float* bias, float* output);
void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output);
/* The same over palettised filters (microaot/internal/palette.h; a depthwise channel's taps are one row):
 * `indices` and `table` in the place of the filter, each channel's filter decoded into `scratch` (its
 * elements: filter_height * filter_width * filter_depth, or filter_height * filter_width for depthwise), which
 * the overlap variants follow with their output row. Refusals as fully_connected_s8_palette's. */
microaot_status microaot_conv_2d_s8_palette(const microaot_conv_2d_params_q* params, const int8_t* input,
                                            const uint8_t* indices, const int8_t* table, const int32_t* bias,
                                            int8_t* output, void* scratch);
microaot_status microaot_conv_2d_s8_palette_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                    const uint8_t* indices, const int8_t* table,
                                                    const int32_t* bias, int8_t* output, void* scratch);
microaot_status microaot_depthwise_conv_2d_s8_palette(const microaot_depthwise_conv_2d_params_q* params,
                                                      const int8_t* input, const uint8_t* indices,
                                                      const int8_t* table, const int32_t* bias, int8_t* output,
                                                      void* scratch);
microaot_status microaot_depthwise_conv_2d_s8_palette_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                              const int8_t* input, const uint8_t* indices,
                                                              const int8_t* table, const int32_t* bias,
                                                              int8_t* output, void* scratch);
/* The same on the DSP for a 3x3 filter without dilation, depth multiplier 1, whole groups of 4 channels and the DSP
 * bounds (microaot_fit_depthwise_widened_palette and microaot_fit_depthwise_dsp, microaot/fit/depthwise_conv_2d.h):
 * each group's 9 taps decoded into a block of the scratch, then the DSP kernel's own rows of the group (the widened
 * ring at stride 1, else the unrolled windows), bit-exact with microaot_depthwise_conv_2d_s8. Any other layer:
 * MICROAOT_STATUS_VALUE_OUT_OF_RANGE, the output unwritten. scratch: MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES (the
 * overlap variant's microaot_depthwise_palette_overlap_rows output rows follow it). */
#define MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES (4 * 9)
static inline int32_t microaot_depthwise_palette_overlap_rows(const microaot_depthwise_conv_2d_params_q* p) {
  return microaot_palette_chunk_rows(p->output_width, p->output_height, 0);
}
microaot_status microaot_depthwise_conv_2d_s8_widened_palette(const microaot_depthwise_conv_2d_params_q* params,
                                                              const int8_t* input, const uint8_t* indices,
                                                              const int8_t* table, const int32_t* bias,
                                                              int8_t* output, void* scratch);
microaot_status microaot_depthwise_conv_2d_s8_widened_palette_overlap(
    const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const uint8_t* indices,
    const int8_t* table, const int32_t* bias, int8_t* output, void* scratch);
/* The same through the widened ring alone (its own source, see kernel_list.def): any layer outside
 * microaot_fit_depthwise_ring_palette is refused with MICROAOT_STATUS_VALUE_OUT_OF_RANGE, the output unwritten. */
microaot_status microaot_depthwise_conv_2d_s8_ring_palette(const microaot_depthwise_conv_2d_params_q* params,
                                                           const int8_t* input, const uint8_t* indices,
                                                           const int8_t* table, const int32_t* bias, int8_t* output,
                                                           void* scratch);
microaot_status microaot_depthwise_conv_2d_s8_ring_palette_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                                   const int8_t* input, const uint8_t* indices,
                                                                   const int8_t* table, const int32_t* bias,
                                                                   int8_t* output, void* scratch);
/* The same for the layers the DSP kernel takes through its widened ring (its own source, see kernel_list.def):
 * the DSP build refuses any other layer, and a requantization outside the ring's bounds
 * (microaot_dsp_depthwise_fits), with MICROAOT_STATUS_VALUE_OUT_OF_RANGE and the output unwritten; the compiler
 * calls it only for layers it proved inside them. The portable build computes every layer. The per-channel
 * requantization is the argument `requant`, 2 * output_depth words: the multipliers, then the shifts (the ring
 * sets up each group of four channels from both); the params' output_multiplier and output_shift are not read
 * (the compiler leaves them NULL, so that layers differing only in requantization share one params struct).
 * A NULL `requant`: MICROAOT_STATUS_NULL_POINTER, the output unwritten. */
microaot_status microaot_depthwise_conv_2d_s8_ring(const microaot_depthwise_conv_2d_params_q* params,
                                                   const int8_t* input, const int8_t* filter, const int32_t* bias,
                                                   const int32_t* requant, int8_t* output);
/* The same over the layer's channel groups set up at compile time (--optimize speed; its own source, see
 * kernel_list.def): `groups` holds MICROAOT_DW_GROUP_WORDS words per group of 4 channels
 * (microaot/internal/depthwise_group_words.h: bias, widened weights, output steps, clamp) in the place of the
 * filter, the bias and the params' output_multiplier and output_shift (not read). Layers of
 * microaot_fit_depthwise_widened_palette only (3x3, no dilation, depth multiplier 1, whole groups of 4): any other
 * is refused with MICROAOT_STATUS_VALUE_OUT_OF_RANGE, a NULL `groups` (or scratch) with
 * MICROAOT_STATUS_NULL_POINTER, the output unwritten. */
microaot_status microaot_depthwise_conv_2d_s8_w16(const microaot_depthwise_conv_2d_params_q* params,
                                                  const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_depthwise_conv_2d_s8_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                          const int8_t* input, const int32_t* groups,
                                                          int8_t* output, void* scratch);
/* The same through the widened ring alone (its own source, as microaot_depthwise_conv_2d_s8_ring): the DSP build
 * also refuses, with MICROAOT_STATUS_VALUE_OUT_OF_RANGE, a layer outside microaot_fit_depthwise_ring. */
microaot_status microaot_depthwise_conv_2d_s8_ring_w16(const microaot_depthwise_conv_2d_params_q* params,
                                                       const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_depthwise_conv_2d_s8_ring_w16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                               const int8_t* input, const int32_t* groups,
                                                               int8_t* output, void* scratch);
/* The same over the compact form of the groups' words (levels other than --optimize speed; its own source, see
 * kernel_list.def): `groups` holds MICROAOT_DW_COMPACT_WORDS words per group of 4 channels
 * (microaot/internal/depthwise_group_words.h: bias, multipliers and exponents, int8 taps), no more bytes than the
 * filter, bias and requantization they replace; the same layers, statuses and ring-alone build. */
microaot_status microaot_depthwise_conv_2d_s8_w8(const microaot_depthwise_conv_2d_params_q* params,
                                                 const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_depthwise_conv_2d_s8_w8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                         const int8_t* input, const int32_t* groups, int8_t* output,
                                                         void* scratch);
microaot_status microaot_depthwise_conv_2d_s8_ring_w8(const microaot_depthwise_conv_2d_params_q* params,
                                                      const int8_t* input, const int32_t* groups, int8_t* output);
microaot_status microaot_depthwise_conv_2d_s8_ring_w8_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                              const int8_t* input, const int32_t* groups,
                                                              int8_t* output, void* scratch);
/* The same for layers of depth multiplier 2 or more over at least 4 output channels (its own source, see
 * kernel_list.def): the DSP build refuses any other layer, and a requantization outside its bounds
 * (microaot/fit/depthwise_conv_2d.h), with MICROAOT_STATUS_VALUE_OUT_OF_RANGE and the output unwritten; the
 * portable build computes every layer. */
microaot_status microaot_depthwise_conv_2d_s8_multiplier(const microaot_depthwise_conv_2d_params_q* params,
                                                         const int8_t* input, const int8_t* filter,
                                                         const int32_t* bias, int8_t* output);
/* The same for the layers of microaot_fit_depthwise_multiplier_strip_tile (its own source, see kernel_list.def): the
 * DSP build refuses any other layer with MICROAOT_STATUS_VALUE_OUT_OF_RANGE and the output unwritten; the portable
 * build computes every layer. */
microaot_status microaot_depthwise_conv_2d_s8_multiplier_strip(const microaot_depthwise_conv_2d_params_q* params,
                                                               const int8_t* input, const int8_t* filter,
                                                               const int32_t* bias, int8_t* output);
void microaot_depthwise_conv_2d_s16(const microaot_depthwise_conv_2d_params_q* params, const int16_t* input,
                                    const int8_t* filter, const int64_t* bias, int16_t* output);
void microaot_depthwise_conv_2d_f32(const microaot_depthwise_conv_2d_params_f32* params, const float* input,
                                    const float* filter, const float* bias, float* output);

/* Overlap flavors: the same computation (bit-identical results), for an output buffer that overlaps the
 * input. Each output row (one batch and output y: all x and channels) is computed into `scratch` and then
 * copied to its place, so the output is written behind the read head. `scratch` holds one output row
 * (output_width * output_depth elements), is aligned for the element type and overlaps no argument.
 * Safe when (output - input) in bytes is at most the row-wise bound the compiler computes
 * (compiler/ops/in_place_bounds.h, row_wise_max_shift); filter and bias must not overlap anything. */
void microaot_conv_2d_s8_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                 const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch);
void microaot_conv_2d_s16_overlap(const microaot_conv_2d_params_q* params, const int16_t* input,
                                  const int8_t* filter, const int64_t* bias, int16_t* output, void* scratch);
void microaot_conv_2d_s16_bias32_overlap(const microaot_conv_2d_params_q* params, const int16_t* input,
                                         const int8_t* filter, const int32_t* bias, int16_t* output,
                                         void* scratch);
void microaot_conv_2d_f32_overlap(const microaot_conv_2d_params_f32* params, const float* input,
                                  const float* filter, const float* bias, float* output, void* scratch);
void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_q* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output,
                                           void* scratch);
microaot_status microaot_depthwise_conv_2d_s8_ring_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                           const int8_t* input, const int8_t* filter,
                                                           const int32_t* bias, const int32_t* requant,
                                                           int8_t* output, void* scratch);
/* Without `scratch`: MICROAOT_STATUS_NULL_POINTER, the output unwritten. */
microaot_status microaot_depthwise_conv_2d_s8_multiplier_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                                                 const int8_t* input, const int8_t* filter,
                                                                 const int32_t* bias, int8_t* output,
                                                                 void* scratch);
microaot_status microaot_depthwise_conv_2d_s8_multiplier_strip_overlap(
    const microaot_depthwise_conv_2d_params_q* params, const int8_t* input, const int8_t* filter, const int32_t* bias,
    int8_t* output, void* scratch);
void microaot_depthwise_conv_2d_s16_overlap(const microaot_depthwise_conv_2d_params_q* params,
                                            const int16_t* input, const int8_t* filter, const int64_t* bias,
                                            int16_t* output, void* scratch);
void microaot_depthwise_conv_2d_f32_overlap(const microaot_depthwise_conv_2d_params_f32* params,
                                            const float* input, const float* filter, const float* bias,
                                            float* output, void* scratch);
void microaot_conv_2d_f32_s8w_overlap(const microaot_conv_2d_params_hybrid* params, const float* input,
                                      const int8_t* filter, const float* bias, float* output, void* scratch);
void microaot_depthwise_conv_2d_f32_s8w_overlap(const microaot_depthwise_conv_2d_params_hybrid* params,
                                                const float* input, const int8_t* filter, const float* bias,
                                                float* output, void* scratch);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_CONV_H */
