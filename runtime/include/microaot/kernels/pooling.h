/* AVERAGE_POOL_2D and MAX_POOL_2D kernels over NHWC tensors. Windows are clipped to the input: padding
 * cells are never read and never counted, as in TFLite. One params struct per dtype serves both ops. */
#ifndef MICROAOT_KERNELS_POOLING_H
#define MICROAOT_KERNELS_POOLING_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/params.h"
#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_POOL_2D_GEOMETRY_FIELDS(X)                              \
  X(I32, batches)                                                        \
  X(I32, input_height)                                                   \
  X(I32, input_width)                                                    \
  X(I32, channels) /* same for input and output */                       \
  X(I32, output_height)                                                  \
  X(I32, output_width)                                                   \
  X(I32, filter_height)                                                  \
  X(I32, filter_width)                                                   \
  X(I32, stride_height)                                                  \
  X(I32, stride_width)                                                   \
  X(I32, padding_height) /* rows of padding before the first input row */ \
  X(I32, padding_width)  /* columns of padding before the first input column */

/* The clamp range is in the quantized domain for int8 and int16 (input and output share one quantization). */
/* ties_to_even (average pools): a mean halfway between two integers takes the even one, as ONNX's QuantizeLinear
 * rounds the float average of a QDQ AveragePool (set by the ONNX frontend); 0 (every .tflite, max pools) takes
 * the one away from zero, as TFLite Micro. */
#define MICROAOT_FIELDS_pool_2d_params_q(X) \
  MICROAOT_POOL_2D_GEOMETRY_FIELDS(X) X(I32, activation_min) X(I32, activation_max) X(I32, ties_to_even)
#define MICROAOT_FIELDS_pool_2d_params_f32(X) \
  MICROAOT_POOL_2D_GEOMETRY_FIELDS(X) X(F32, activation_min) X(F32, activation_max)
MICROAOT_DEFINE_PARAMS(pool_2d_params_q)
MICROAOT_DEFINE_PARAMS(pool_2d_params_f32)

/* Mean of the in-bounds window elements (integers: summed in 32 bits, rounded to nearest, ties away from
 * zero or, with ties_to_even, to even), then clamped. */
void microaot_average_pool_2d_s8(const microaot_pool_2d_params_q* params, const int8_t* input, int8_t* output);
void microaot_average_pool_2d_s16(const microaot_pool_2d_params_q* params, const int16_t* input, int16_t* output);
void microaot_average_pool_2d_f32(const microaot_pool_2d_params_f32* params, const float* input, float* output);
/* The same for the layers the DSP kernel computes in its 16-bit lanes (its own source, see kernel_list.def):
 * VALUE_OUT_OF_RANGE, the output unwritten, for any other layer with the DSP extension; always OK without. */
microaot_status microaot_average_pool_2d_s8_lanes(const microaot_pool_2d_params_q* params, const int8_t* input,
                                                  int8_t* output);
/* The same for a global layer (the window the whole plane, no padding, 1x1 output) within those lanes. */
microaot_status microaot_average_pool_2d_s8_global(const microaot_pool_2d_params_q* params, const int8_t* input,
                                                   int8_t* output);

/* Maximum of the in-bounds window elements, then clamped. */
void microaot_max_pool_2d_s8(const microaot_pool_2d_params_q* params, const int8_t* input, int8_t* output);
void microaot_max_pool_2d_s16(const microaot_pool_2d_params_q* params, const int16_t* input, int16_t* output);
void microaot_max_pool_2d_f32(const microaot_pool_2d_params_f32* params, const float* input, float* output);

/* L2_POOL_2D: square root of the mean square of the in-bounds window elements, then clamped (float only). */
void microaot_l2_pool_2d_f32(const microaot_pool_2d_params_f32* params, const float* input, float* output);

/* Overlap flavors: the same results, for an output buffer that overlaps the input. Each output row (one
 * batch and output y: all x and channels) is computed into `scratch` (output_width * channels elements,
 * aligned for the element type, overlapping no argument) and then copied to its place. Safe when
 * (output - input) in bytes is at most the compiler's row-wise bound (compiler/ops/in_place_bounds.h). */
void microaot_average_pool_2d_s8_overlap(const microaot_pool_2d_params_q* params, const int8_t* input,
                                         int8_t* output, void* scratch);
void microaot_average_pool_2d_s16_overlap(const microaot_pool_2d_params_q* params, const int16_t* input,
                                          int16_t* output, void* scratch);
microaot_status microaot_average_pool_2d_s8_lanes_overlap(const microaot_pool_2d_params_q* params,
                                                          const int8_t* input, int8_t* output, void* scratch);
microaot_status microaot_average_pool_2d_s8_global_overlap(const microaot_pool_2d_params_q* params,
                                                           const int8_t* input, int8_t* output, void* scratch);
void microaot_average_pool_2d_f32_overlap(const microaot_pool_2d_params_f32* params, const float* input,
                                          float* output, void* scratch);
void microaot_max_pool_2d_s8_overlap(const microaot_pool_2d_params_q* params, const int8_t* input, int8_t* output,
                                     void* scratch);
void microaot_max_pool_2d_s16_overlap(const microaot_pool_2d_params_q* params, const int16_t* input,
                                      int16_t* output, void* scratch);
void microaot_max_pool_2d_f32_overlap(const microaot_pool_2d_params_f32* params, const float* input, float* output,
                                      void* scratch);
void microaot_l2_pool_2d_f32_overlap(const microaot_pool_2d_params_f32* params, const float* input, float* output,
                                     void* scratch);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_POOLING_H */
