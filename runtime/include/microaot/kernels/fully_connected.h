/* FULLY_CONNECTED kernels: output[b][u] = act(sum_d input[b][d] * weights[u][d] + bias[u]).
 * Weights are TFLite's [units, depth] row-major; the input is read as [batches, depth] whatever its rank.
 * Every constant is computed by the compiler; the params struct lives in flash. */
#ifndef MICROAOT_KERNELS_FULLY_CONNECTED_H
#define MICROAOT_KERNELS_FULLY_CONNECTED_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/params.h"
#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_FC_SHAPE_FIELDS(X)                                   \
  X(I32, batches)      /* input elements / input_depth */             \
  X(I32, input_depth)  /* accumulation depth (weights' inner dimension) */ \
  X(I32, output_depth) /* units (weights' outer dimension) */

/* One multiplier/shift per unit (per-tensor weights repeat the same value): real multiplier
 * = output_multiplier * 2^(output_shift - 31), shift > 0 meaning a left shift. */
#define MICROAOT_FIELDS_fully_connected_params_q(X)                            \
  MICROAOT_FC_SHAPE_FIELDS(X)                                                  \
  X(I32, input_offset)   /* -input zero point */                               \
  X(I32, filter_offset)  /* -weights zero point (0 for symmetric and per-channel weights) */ \
  X(I32, output_offset)  /* +output zero point */                              \
  X(I32, activation_min) /* clamp range in the output's quantized domain */    \
  X(I32, activation_max)                                                       \
  X(I32_ARRAY, output_multiplier) /* [output_depth] */                         \
  X(I32_ARRAY, output_shift)      /* [output_depth] */
MICROAOT_DEFINE_PARAMS(fully_connected_params_q)

#define MICROAOT_FIELDS_fully_connected_params_f32(X) \
  MICROAOT_FC_SHAPE_FIELDS(X)                         \
  X(F32, activation_min)                              \
  X(F32, activation_max)
MICROAOT_DEFINE_PARAMS(fully_connected_params_f32)

/* Hybrid (float32 activations, int8 weights): each unit's sum of input * int8 weight is multiplied by the
 * unit's weight scale (a per-tensor scale is repeated) before the bias. */
#define MICROAOT_FIELDS_fully_connected_params_hybrid(X) \
  MICROAOT_FIELDS_fully_connected_params_f32(X)          \
  X(F32_ARRAY, filter_scale) /* [output_depth] */
MICROAOT_DEFINE_PARAMS(fully_connected_params_hybrid)

/* int8 activations and weights, int32 bias (NULL when absent); TFLM-exact requantization. */
void microaot_fully_connected_s8(const microaot_fully_connected_params_q* params, const int8_t* input,
                                 const int8_t* weights, const int32_t* bias, int8_t* output);

/* The same over palettised weights (microaot/internal/palette.h): `indices` and `table` in the place of the
 * weights, each unit's row decoded into `scratch` (input_depth bytes). NULL indices, table or scratch:
 * MICROAOT_STATUS_NULL_POINTER; an indices header outside 1..8 bits: MICROAOT_STATUS_VALUE_OUT_OF_RANGE (the
 * output unwritten either way). */
microaot_status microaot_fully_connected_s8_palette(const microaot_fully_connected_params_q* params,
                                                    const int8_t* input, const uint8_t* indices, const int8_t* table,
                                                    const int32_t* bias, int8_t* output, void* scratch);

/* int16 activations, int8 weights (16x8): an int64 bias, 64-bit accumulator and TFLite's 16x8
 * requantization; the _bias32 flavor accumulates and requantizes in 32 bits, as TFLM does for an int32 bias. */
void microaot_fully_connected_s16(const microaot_fully_connected_params_q* params, const int16_t* input,
                                  const int8_t* weights, const int64_t* bias, int16_t* output);
void microaot_fully_connected_s16_bias32(const microaot_fully_connected_params_q* params, const int16_t* input,
                                         const int8_t* weights, const int32_t* bias, int16_t* output);

/* float32 everything; bias may be NULL. */
void microaot_fully_connected_f32(const microaot_fully_connected_params_f32* params, const float* input,
                                  const float* weights, const float* bias, float* output);

/* Hybrid: float32 input, bias (may be NULL) and output, int8 weights kept int8 in flash. */
void microaot_fully_connected_f32_s8w(const microaot_fully_connected_params_hybrid* params, const float* input,
                                      const int8_t* weights, const float* bias, float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_FULLY_CONNECTED_H */
