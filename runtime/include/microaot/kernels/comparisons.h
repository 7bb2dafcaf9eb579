/* Kernels of EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER and GREATER_EQUAL: one bool (a byte, 0 or 1) per
 * element, with NumPy-style broadcasting (microaot/broadcast.h). int8 inputs are compared on a common scale as
 * TFLite Micro does: each input becomes ((q - zero point) << 8) times its scale in fixed point (the one
 * rescale-and-compare of every comparison); other types compare their values, bool as true or false. */
#ifndef MICROAOT_KERNELS_COMPARISONS_H
#define MICROAOT_KERNELS_COMPARISONS_H

#include <stdint.h>

#include "microaot/broadcast.h"
#include "microaot/fixedpoint.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_FIELDS_comparison_params_s8(X)                                \
  MICROAOT_BROADCAST_FIELDS(X)                                                 \
  X(I32, input1_offset)     /* -input 1 zero point */                          \
  X(I32, input1_multiplier) /* Q31 mantissa of input 1's scale */              \
  X(I32, input1_shift)      /* its exponent, <= 0 */                           \
  X(I32, input2_offset)                                                        \
  X(I32, input2_multiplier)                                                    \
  X(I32, input2_shift)                                                         \
  X(I32, left_shift) /* 8 */
MICROAOT_DEFINE_PARAMS(comparison_params_s8)

void microaot_equal_s8(const microaot_comparison_params_s8* params, const int8_t* input1, const int8_t* input2,
                       uint8_t* output);
void microaot_equal_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                        uint8_t* output);
void microaot_equal_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                        uint8_t* output);
void microaot_equal_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                        uint8_t* output);
void microaot_equal_bool(const microaot_binary_params* params, const uint8_t* input1, const uint8_t* input2,
                         uint8_t* output);
void microaot_not_equal_s8(const microaot_comparison_params_s8* params, const int8_t* input1, const int8_t* input2,
                           uint8_t* output);
void microaot_not_equal_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                            uint8_t* output);
void microaot_not_equal_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                            uint8_t* output);
void microaot_not_equal_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                            uint8_t* output);
void microaot_not_equal_bool(const microaot_binary_params* params, const uint8_t* input1, const uint8_t* input2,
                             uint8_t* output);
void microaot_less_s8(const microaot_comparison_params_s8* params, const int8_t* input1, const int8_t* input2,
                      uint8_t* output);
void microaot_less_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                       uint8_t* output);
void microaot_less_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                       uint8_t* output);
void microaot_less_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                       uint8_t* output);
void microaot_less_equal_s8(const microaot_comparison_params_s8* params, const int8_t* input1,
                            const int8_t* input2, uint8_t* output);
void microaot_less_equal_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                             uint8_t* output);
void microaot_less_equal_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                             uint8_t* output);
void microaot_less_equal_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                             uint8_t* output);
void microaot_greater_s8(const microaot_comparison_params_s8* params, const int8_t* input1, const int8_t* input2,
                         uint8_t* output);
void microaot_greater_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                          uint8_t* output);
void microaot_greater_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                          uint8_t* output);
void microaot_greater_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                          uint8_t* output);
void microaot_greater_equal_s8(const microaot_comparison_params_s8* params, const int8_t* input1,
                               const int8_t* input2, uint8_t* output);
void microaot_greater_equal_s32(const microaot_binary_params* params, const int32_t* input1, const int32_t* input2,
                                uint8_t* output);
void microaot_greater_equal_s64(const microaot_binary_params* params, const int64_t* input1, const int64_t* input2,
                                uint8_t* output);
void microaot_greater_equal_f32(const microaot_binary_params* params, const float* input1, const float* input2,
                                uint8_t* output);

/* Defines the comparison kernel `name` of element type T with params P: output = a OP b on the values VALUE
 * gives, VALUE(p, k, x) for element x of input k. One line per kernel file. */
#define MICROAOT_DEFINE_COMPARISON_KERNEL(name, P, T, VALUE, OP) \
  static inline int microaot_##name##_element(const P* p, T a, T b) { \
    (void)p;                                                           \
    return VALUE(p, 1, a) OP VALUE(p, 2, b);                           \
  }                                                                    \
  MICROAOT_DEFINE_BINARY_KERNEL_TO(name, P, T, uint8_t, microaot_##name##_element)

/* The values compared: int8 on the common scale, bool as true or false, other types as they are. */
#define MICROAOT_COMPARE_RESCALED(p, k, x) MICROAOT_RESCALED_INPUT(p, k, x)
#define MICROAOT_COMPARE_TRUTH(p, k, x) ((x) != 0)
#define MICROAOT_COMPARE_VALUE(p, k, x) (x)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_COMPARISONS_H */
