/* SVDF kernels (TFLM's svdf.cc): a rank-factored filter over time with its memory in a state tensor.
 * Each run shifts every filter's memory one step left, puts the new feature value (input · weights_feature
 * row) in the last slot, takes each filter's dot product with its weights_time row, sums the `rank` filters
 * of each unit, adds the bias and gives the output. Shapes: input [batches, input_size], weights_feature
 * [filters, input_size], weights_time [filters, memory], bias [units], state [batches, filters * memory]
 * (updated in place: it is state kept from run to run), output [batches, units]; filters = units * rank.
 * Scratch: the filters' sums, then (integers) the units' sums, batches * (filters + units) 4-byte words.
 * The SVDF state ring kernels (microaot_svdf_ring_*) give the same outputs without moving the state: each filter's
 * memory is a ring, `position` (an int32 kept with the state, 0 at reset) the slot of its oldest value,
 * which the new value replaces before the position moves on; TFLM's layout is the ring read from
 * position + 1 on. They return MICROAOT_STATUS_VALUE_OUT_OF_RANGE for a position outside [0, memory). */
#ifndef MICROAOT_KERNELS_SVDF_H
#define MICROAOT_KERNELS_SVDF_H

#include <stdint.h>

#include "microaot/params.h"
#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_SVDF_SHAPE_FIELDS(X) \
  X(I32, batches)                     \
  X(I32, input_size)                  \
  X(I32, filters)                     \
  X(I32, units)                       \
  X(I32, rank)                        \
  X(I32, memory)

/* Integers: the feature value is requantized to the state (multiplier 1), clamped to the state type and
 * offset by the state zero point; the unit sum is requantized to the output (multiplier 2) and clamped to
 * int8. TFLM applies no fused activation here. */
#define MICROAOT_FIELDS_svdf_params_q(X)                                   \
  MICROAOT_SVDF_SHAPE_FIELDS(X)                                            \
  X(I32, input_offset)      /* -input zero point */                        \
  X(I32, state_zero_point)                                                 \
  X(I32, output_offset)     /* +output zero point */                       \
  X(I32, feature_multiplier) /* input * weights_feature / state scales */  \
  X(I32, feature_shift)                                                    \
  X(I32, output_multiplier) /* state * weights_time / output scales */     \
  X(I32, output_shift)
MICROAOT_DEFINE_PARAMS(svdf_params_q)

#define MICROAOT_FIELDS_svdf_params_f32(X) \
  MICROAOT_SVDF_SHAPE_FIELDS(X)            \
  X(F32, activation_min)                   \
  X(F32, activation_max)
MICROAOT_DEFINE_PARAMS(svdf_params_f32)

/* int8 input and weights_feature, int16 weights_time and state, int32 bias (NULL when absent), int8 output. */
void microaot_svdf_s8_s16(const microaot_svdf_params_q* params, const int8_t* input, const int8_t* weights_feature,
                          const int16_t* weights_time, const int32_t* bias, int16_t* state, int8_t* output,
                          void* scratch);
/* The same with int8 weights_time and state. */
void microaot_svdf_s8_s8(const microaot_svdf_params_q* params, const int8_t* input, const int8_t* weights_feature,
                         const int8_t* weights_time, const int32_t* bias, int8_t* state, int8_t* output,
                         void* scratch);
/* float32 everything; bias may be NULL. Scratch: batches * filters floats. */
void microaot_svdf_f32(const microaot_svdf_params_f32* params, const float* input, const float* weights_feature,
                       const float* weights_time, const float* bias, float* state, float* output, void* scratch);

/* The SVDF state ring kernels: the same arguments, the position after the state. */
microaot_status microaot_svdf_ring_s8_s16(const microaot_svdf_params_q* params, const int8_t* input,
                                          const int8_t* weights_feature, const int16_t* weights_time,
                                          const int32_t* bias, int16_t* state, int32_t* position, int8_t* output,
                                          void* scratch);
microaot_status microaot_svdf_ring_s8_s8(const microaot_svdf_params_q* params, const int8_t* input,
                                         const int8_t* weights_feature, const int8_t* weights_time,
                                         const int32_t* bias, int8_t* state, int32_t* position, int8_t* output,
                                         void* scratch);
microaot_status microaot_svdf_ring_f32(const microaot_svdf_params_f32* params, const float* input,
                                       const float* weights_feature, const float* weights_time, const float* bias,
                                       float* state, int32_t* position, float* output, void* scratch);

/* The packed ring kernels, for a target with the DSP extension (compiler/ops/svdf.cpp picks them for a ring's
 * layer): the same results as the ring kernels above over constants the compiler derives from the model's.
 * features: weights_feature in the packed kernels' layout (microaot/internal/packed_dot.h, int8 words), its
 * filters padded with zero rows to a multiple of four (one input row against four filters per inner step);
 * time: each filter's weights_time row twice over ([filters][2 * memory]), so that the ring's slots, oldest
 * anywhere, meet their weights as one contiguous row; constants: per padded filter the input offset times its
 * feature weights' sum, then per unit the bias minus the state zero point times its filters' weights_time sums
 * (the offsets out of the inner loops). MICROAOT_STATUS_VALUE_OUT_OF_RANGE for a layer outside
 * microaot_fit_svdf_packed (microaot/fit/svdf.h) or a position outside [0, memory), nothing written. Scratch:
 * MICROAOT_SVDF_PACKED_SCRATCH_BYTES(input_size), word aligned. */
#define MICROAOT_SVDF_PACKED_SCRATCH_BYTES(input_size) (8 * (((input_size) + 3) / 4))
#define MICROAOT_SVDF_PACKED_FILTERS(filters) (4 * (((filters) + 3) / 4))
microaot_status microaot_svdf_ring_s8_s16_packed(const microaot_svdf_params_q* params, const int8_t* input,
                                                 const int32_t* features, const int16_t* time,
                                                 const int32_t* constants, int16_t* state, int32_t* position,
                                                 int8_t* output, void* scratch);
microaot_status microaot_svdf_ring_s8_s8_packed(const microaot_svdf_params_q* params, const int8_t* input,
                                                const int32_t* features, const int8_t* time,
                                                const int32_t* constants, int8_t* state, int32_t* position,
                                                int8_t* output, void* scratch);

#ifdef __cplusplus
}
#endif

#endif
