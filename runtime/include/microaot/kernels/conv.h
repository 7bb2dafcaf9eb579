/* 2-D convolution and depthwise convolution kernels (NHWC activations; OHWI conv filters, 1HWC depthwise
 * filters). Every field of the params structs is computed by the compiler; the int8 kernels are bit-exact
 * with TFLite Micro's reference kernels (per-channel requantization, taps outside the image skipped). */
#ifndef MICROAOT_KERNELS_CONV_H
#define MICROAOT_KERNELS_CONV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* int8 CONV_2D. Grouped convolution when filter_depth < input_depth (groups = input_depth / filter_depth).
 * output_multiplier/output_shift have output_depth entries (per-tensor filters repeat one value);
 * shift > 0 is a left shift, as in TFLite's QuantizeMultiplier. */
typedef struct {
  int32_t batches;
  int32_t input_height, input_width, input_depth;
  int32_t filter_height, filter_width, filter_depth;
  int32_t output_height, output_width, output_depth;
  int32_t stride_height, stride_width;
  int32_t dilation_height, dilation_width;
  int32_t pad_height, pad_width; /* padding before the first row / column */
  int32_t input_offset;          /* -input zero point */
  int32_t output_offset;         /* +output zero point */
  int32_t activation_min, activation_max;
  const int32_t* output_multiplier;
  const int32_t* output_shift;
} microaot_conv_2d_params_s8;

/* float32 CONV_2D; same geometry fields as the int8 struct, fused activation as a clamp range. */
typedef struct {
  int32_t batches;
  int32_t input_height, input_width, input_depth;
  int32_t filter_height, filter_width, filter_depth;
  int32_t output_height, output_width, output_depth;
  int32_t stride_height, stride_width;
  int32_t dilation_height, dilation_width;
  int32_t pad_height, pad_width;
  float activation_min, activation_max;
} microaot_conv_2d_params_f32;

/* int8 DEPTHWISE_CONV_2D: output channel c reads input channel c / depth_multiplier;
 * output_depth = input_depth * depth_multiplier; per-channel arrays have output_depth entries. */
typedef struct {
  int32_t batches;
  int32_t input_height, input_width, input_depth;
  int32_t filter_height, filter_width;
  int32_t output_height, output_width, output_depth;
  int32_t depth_multiplier;
  int32_t stride_height, stride_width;
  int32_t dilation_height, dilation_width;
  int32_t pad_height, pad_width;
  int32_t input_offset;
  int32_t output_offset;
  int32_t activation_min, activation_max;
  const int32_t* output_multiplier;
  const int32_t* output_shift;
} microaot_depthwise_conv_2d_params_s8;

typedef struct {
  int32_t batches;
  int32_t input_height, input_width, input_depth;
  int32_t filter_height, filter_width;
  int32_t output_height, output_width, output_depth;
  int32_t depth_multiplier;
  int32_t stride_height, stride_width;
  int32_t dilation_height, dilation_width;
  int32_t pad_height, pad_width;
  float activation_min, activation_max;
} microaot_depthwise_conv_2d_params_f32;

/* bias may be NULL (no bias). Buffers must not overlap the output (see the overlap flavors below). */
void microaot_conv_2d_s8(const microaot_conv_2d_params_s8* params, const int8_t* input, const int8_t* filter,
                         const int32_t* bias, int8_t* output);
void microaot_conv_2d_f32(const microaot_conv_2d_params_f32* params, const float* input, const float* filter,
                          const float* bias, float* output);
void microaot_depthwise_conv_2d_s8(const microaot_depthwise_conv_2d_params_s8* params, const int8_t* input,
                                   const int8_t* filter, const int32_t* bias, int8_t* output);
void microaot_depthwise_conv_2d_f32(const microaot_depthwise_conv_2d_params_f32* params, const float* input,
                                    const float* filter, const float* bias, float* output);

/* Overlap flavors: the same computation (bit-identical results), for an output buffer that overlaps the
 * input. Each output row (one batch and output y: all x and channels) is computed into `scratch` and then
 * copied to its place, so the output is written behind the read head. `scratch` holds one output row
 * (output_width * output_depth elements), is aligned for the element type and overlaps no argument.
 * Safe when (output - input) in bytes is at most the row-wise bound the compiler computes
 * (compiler/ops/in_place_bounds.h, row_wise_max_shift); filter and bias must not overlap anything. */
void microaot_conv_2d_s8_overlap(const microaot_conv_2d_params_s8* params, const int8_t* input,
                                 const int8_t* filter, const int32_t* bias, int8_t* output, void* scratch);
void microaot_conv_2d_f32_overlap(const microaot_conv_2d_params_f32* params, const float* input,
                                  const float* filter, const float* bias, float* output, void* scratch);
void microaot_depthwise_conv_2d_s8_overlap(const microaot_depthwise_conv_2d_params_s8* params, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias, int8_t* output,
                                           void* scratch);
void microaot_depthwise_conv_2d_f32_overlap(const microaot_depthwise_conv_2d_params_f32* params,
                                            const float* input, const float* filter, const float* bias,
                                            float* output, void* scratch);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_CONV_H */
