/* Kernels of MAXIMUM and MINIMUM, element-wise with NumPy-style broadcasting (microaot/broadcast.h). As in
 * TFLite Micro, quantized values are compared and copied as they are (the tensors share their quantization),
 * and a float comparison with NaN picks input 2. */
#ifndef MICROAOT_KERNELS_MAXIMUM_MINIMUM_H
#define MICROAOT_KERNELS_MAXIMUM_MINIMUM_H

#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

void microaot_maximum_s8(const microaot_binary_params* params, const int8_t* input1, const int8_t* input2,
                         int8_t* output);
void microaot_maximum_s16(const microaot_binary_params* params, const int16_t* input1, const int16_t* input2,
                          int16_t* output);
void microaot_maximum_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                          int32_t* output);
void microaot_maximum_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                          int64_t* output);
void microaot_maximum_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                          float* output);
void microaot_minimum_s8(const microaot_binary_params* params, const int8_t* input1, const int8_t* input2,
                         int8_t* output);
void microaot_minimum_s16(const microaot_binary_params* params, const int16_t* input1, const int16_t* input2,
                          int16_t* output);
void microaot_minimum_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                          int32_t* output);
void microaot_minimum_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                          int64_t* output);
void microaot_minimum_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                          float* output);

/* The element functions of MICROAOT_DEFINE_BINARY_KERNEL, one kernel per file so a model links only its own. */
#define MICROAOT_MAXIMUM(p, a, b) ((a) > (b) ? (a) : (b))
#define MICROAOT_MINIMUM(p, a, b) ((a) < (b) ? (a) : (b))

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_MAXIMUM_MINIMUM_H */
