/* Kernels of SOFTMAX over the last dimension: `outer_size` rows of `depth` contiguous elements.
 * The quantized kernels follow TFLite Micro's reference arithmetic bit for bit. int8 input: a fixed-point
 * exp of (x - row max) scaled by an input multiplier that folds in beta, summed in Q12.19, then multiplied
 * by the fixed-point reciprocal of the sum. Each row is read whole before any of it is stored, then element i
 * is read again (or not: the int8 kernels keep the first exps) just before it is stored, in order (later
 * passes read only the output), so the output may overlap the input when (output - input) in bytes is at most
 * element_wise_max_shift (compiler/ops/in_place_bounds.h). */
#ifndef MICROAOT_KERNELS_SOFTMAX_H
#define MICROAOT_KERNELS_SOFTMAX_H

#include <stdint.h>

#include "microaot/fixedpoint_exp.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* int8 input, int8 or int16 output. Output quantization is fixed by the op: int8 1/256 with zero point
 * -128, int16 1/65536 with zero point -32768; the kernels add the type's minimum directly. */
#define MICROAOT_SOFTMAX_ROWS_FIELDS(X)                                      \
  X(I32, outer_size) /* product of all dimensions but the last */            \
  X(I32, depth)      /* the last dimension */
#define MICROAOT_FIELDS_softmax_params_s8(X)                                           \
  MICROAOT_SOFTMAX_ROWS_FIELDS(X)                                                      \
  X(I32, input_multiplier) /* Q31 mantissa of beta * input_scale * 2^26 (capped at 2^31 - 1) */ \
  X(I32, input_left_shift) /* its exponent, >= 0: differences become Q5.26 after the multiply */ \
  X(I32, diff_min)         /* differences below this (<= 0) contribute nothing and output the minimum */
MICROAOT_DEFINE_PARAMS(softmax_params_s8)

/* int8 -> int8 with the exps of the 256 possible differences computed at compile time (--optimize speed and
 * balanced; compiler/kernels/tabulate.h): the same arithmetic, a table read where the exp was. */
#define MICROAOT_FIELDS_softmax_table_params_s8(X) \
  MICROAOT_FIELDS_softmax_params_s8(X)             \
  X(I32_ARRAY, exps) /* [256]: entry k is microaot_softmax_s8_exp of the difference -k */
MICROAOT_DEFINE_PARAMS(softmax_table_params_s8)

/* exp(beta * input_scale * diff) in Q0.31 for a difference to the row maximum of at least diff_min, else 0. */
static inline int32_t microaot_softmax_s8_exp(const microaot_softmax_params_s8* params, int32_t diff) {
  if (diff < params->diff_min) return 0;
  if (diff == 0) return INT32_MAX; /* exp(0), without the ~150 instructions of the general path */
  return microaot_softmax_exp_of_diff(diff, params->input_multiplier, (int)params->input_left_shift);
}

/* int16 -> int16 (output 1/32768, zero point 0), TFLM's table-based path: differences scaled so that
 * [-65535, 0] covers [-10, 0], exp from a 513-entry table with linear interpolation, the sum normalized
 * and inverted through a second table of 1/(1 + x). The output buffer holds the exps in between. */
#define MICROAOT_FIELDS_softmax_params_s16(X)                                                 \
  MICROAOT_SOFTMAX_ROWS_FIELDS(X)                                                             \
  X(I32, input_multiplier)                 /* Q31 mantissa of input_scale * beta / (10 / 65535) */ \
  X(I32, input_shift)                      /* its exponent; > 0 shifts left */                \
  X(I16_ARRAY, exp_lut)                    /* [513] exp on [-10, 0] in Q0.15 */               \
  X(I16_ARRAY, one_over_one_plus_x_lut)    /* [513] 1/(1 + x) on [0, 1] in Q0.15 */
MICROAOT_DEFINE_PARAMS(softmax_params_s16)

/* float: exp((x - max) * beta) / sum, as TFLM's reference. */
#define MICROAOT_FIELDS_softmax_params_f32(X) MICROAOT_SOFTMAX_ROWS_FIELDS(X) X(F32, beta)
MICROAOT_DEFINE_PARAMS(softmax_params_f32)

void microaot_softmax_s8(const microaot_softmax_params_s8* params, const int8_t* input, int8_t* output);
void microaot_softmax_s8_table(const microaot_softmax_table_params_s8* params, const int8_t* input, int8_t* output);
/* Same parameters as the int8 kernel; the output has 16 bits of resolution. */
void microaot_softmax_s8_s16(const microaot_softmax_params_s8* params, const int8_t* input, int16_t* output);
void microaot_softmax_s16(const microaot_softmax_params_s16* params, const int16_t* input, int16_t* output);
void microaot_softmax_f32(const microaot_softmax_params_f32* params, const float* input, float* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_SOFTMAX_H */
