/* FULLY_CONNECTED kernels: output[b][u] = act(sum_d input[b][d] * weights[u][d] + bias[u]).
 * Weights are TFLite's [units, depth] row-major; the input is read as [batches, depth] whatever its rank.
 * Every constant is computed by the compiler; the params struct lives in flash. */
#ifndef MICROAOT_KERNELS_FULLY_CONNECTED_H
#define MICROAOT_KERNELS_FULLY_CONNECTED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int32_t batches;      /* input elements / input_depth */
  int32_t input_depth;  /* accumulation depth (weights' inner dimension) */
  int32_t output_depth; /* units (weights' outer dimension) */
  int32_t input_offset; /* -input zero point */
  int32_t filter_offset; /* -weights zero point (0 for symmetric and per-channel weights) */
  int32_t output_offset; /* +output zero point */
  int32_t activation_min; /* clamp range in the output's quantized domain */
  int32_t activation_max;
  /* One entry per unit (per-tensor weights repeat the same value): real multiplier
   * = output_multiplier * 2^(output_shift - 31), shift > 0 meaning a left shift. */
  const int32_t* output_multiplier;
  const int32_t* output_shift;
} microaot_fully_connected_params_s8;

typedef struct {
  int32_t batches;
  int32_t input_depth;
  int32_t output_depth;
  float activation_min;
  float activation_max;
} microaot_fully_connected_params_f32;

/* int8 activations and weights, int32 bias (NULL when absent); TFLM-exact requantization. */
void microaot_fully_connected_s8(const microaot_fully_connected_params_s8* params, const int8_t* input,
                                 const int8_t* weights, const int32_t* bias, int8_t* output);

/* float32 everything; bias may be NULL. */
void microaot_fully_connected_f32(const microaot_fully_connected_params_f32* params, const float* input,
                                  const float* weights, const float* bias, float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_FULLY_CONNECTED_H */
