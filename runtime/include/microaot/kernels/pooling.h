/* AVERAGE_POOL_2D and MAX_POOL_2D kernels over NHWC tensors. Windows are clipped to the input: padding
 * cells are never read and never counted, as in TFLite. One params struct per dtype serves both ops. */
#ifndef MICROAOT_KERNELS_POOLING_H
#define MICROAOT_KERNELS_POOLING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int32_t batches;
  int32_t input_height;
  int32_t input_width;
  int32_t channels; /* same for input and output */
  int32_t output_height;
  int32_t output_width;
  int32_t filter_height;
  int32_t filter_width;
  int32_t stride_height;
  int32_t stride_width;
  int32_t padding_height; /* rows of padding before the first input row */
  int32_t padding_width;  /* columns of padding before the first input column */
  /* Clamp range in the quantized domain; input and output share one quantization. */
  int32_t activation_min;
  int32_t activation_max;
} microaot_pool_2d_params_s8;

typedef struct {
  int32_t batches;
  int32_t input_height;
  int32_t input_width;
  int32_t channels;
  int32_t output_height;
  int32_t output_width;
  int32_t filter_height;
  int32_t filter_width;
  int32_t stride_height;
  int32_t stride_width;
  int32_t padding_height;
  int32_t padding_width;
  float activation_min;
  float activation_max;
} microaot_pool_2d_params_f32;

/* Mean of the in-bounds window elements, rounded to nearest (ties away from zero), then clamped. */
void microaot_average_pool_2d_s8(const microaot_pool_2d_params_s8* params, const int8_t* input, int8_t* output);
void microaot_average_pool_2d_f32(const microaot_pool_2d_params_f32* params, const float* input, float* output);

/* Maximum of the in-bounds window elements, then clamped. */
void microaot_max_pool_2d_s8(const microaot_pool_2d_params_s8* params, const int8_t* input, int8_t* output);
void microaot_max_pool_2d_f32(const microaot_pool_2d_params_f32* params, const float* input, float* output);

/* Overlap flavors: the same results, for an output buffer that overlaps the input. Each output row (one
 * batch and output y: all x and channels) is computed into `scratch` (output_width * channels elements,
 * aligned for the element type, overlapping no argument) and then copied to its place. Safe when
 * (output - input) in bytes is at most the compiler's row-wise bound (compiler/ops/in_place_bounds.h). */
void microaot_average_pool_2d_s8_overlap(const microaot_pool_2d_params_s8* params, const int8_t* input,
                                         int8_t* output, void* scratch);
void microaot_average_pool_2d_f32_overlap(const microaot_pool_2d_params_f32* params, const float* input,
                                          float* output, void* scratch);
void microaot_max_pool_2d_s8_overlap(const microaot_pool_2d_params_s8* params, const int8_t* input, int8_t* output,
                                     void* scratch);
void microaot_max_pool_2d_f32_overlap(const microaot_pool_2d_params_f32* params, const float* input, float* output,
                                      void* scratch);

/* One axis of a window: output position `out` covers input [origin + *begin, origin + *end), clipped to
 * [0, in_size); returns origin = out * stride - padding. Shared by the four kernels. */
static inline int32_t microaot_pool_2d_window(int32_t out, int32_t stride, int32_t padding, int32_t filter,
                                              int32_t in_size, int32_t* begin, int32_t* end) {
  const int32_t origin = out * stride - padding;
  *begin = origin < 0 ? -origin : 0;
  *end = in_size - origin < filter ? in_size - origin : filter;
  return origin;
}

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_POOLING_H */
