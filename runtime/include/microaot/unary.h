/* The skeleton of the element-wise unary kernels (ABS, EXP, RELU, LOGISTIC, CAST, ...): output element i is a
 * function of input element i alone. The walk reads element i just before it stores element i, in index
 * order, so the output may overlap the input when (output - input) in bytes is at most element_wise_max_shift
 * (compiler/ops/in_place_bounds.h). */
#ifndef MICROAOT_UNARY_H
#define MICROAOT_UNARY_H

#include <stdint.h>

#include "microaot/fixedpoint.h"
#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The leading field of every unary kernel's params struct. */
#define MICROAOT_UNARY_FIELDS(X) X(I32, size) /* elements */

/* Kernels that need nothing but the element count (the float math functions, LOGICAL_NOT, CAST). */
#define MICROAOT_FIELDS_unary_params(X) MICROAOT_UNARY_FIELDS(X)
MICROAOT_DEFINE_PARAMS(unary_params)

/* Quantized kernels that rescale one value (ABS, RSQRT, RELU): clamp(value * multiplier + output zero point).
 * The clamp is the output type's range, or [output zero point, type maximum] for RELU. */
#define MICROAOT_FIELDS_unary_params_q(X)                                              \
  MICROAOT_UNARY_FIELDS(X)                                                             \
  X(I32, input_offset)      /* -input zero point */                                    \
  X(I32, output_multiplier) /* Q31 mantissa of the op's real multiplier */             \
  X(I32, output_shift)      /* its exponent; > 0 shifts left */                        \
  X(I32, output_offset)     /* +output zero point */                                   \
  X(I32, activation_min)    /* clamp, in output quantized units */                     \
  X(I32, activation_max)
MICROAOT_DEFINE_PARAMS(unary_params_q)

/* value (already offset) rescaled to the output, shifted by its zero point and clamped. */
static inline int32_t microaot_unary_rescale(const microaot_unary_params_q* p, int32_t value) {
  const int32_t scaled = microaot_multiply_by_quantized_multiplier(value, p->output_multiplier, (int)p->output_shift);
  return microaot_clamp_s32(scaled + p->output_offset, p->activation_min, p->activation_max);
}

/* The low 8 or 16 bits of v as a signed value: the two's complement wrap-around of a narrowing conversion,
 * which C leaves to the implementation. */
static inline int32_t microaot_wrap_s8(int32_t v) { return (int32_t)(((uint32_t)v & 0xFFu) ^ 0x80u) - 0x80; }
static inline int32_t microaot_wrap_s16(int32_t v) { return (int32_t)(((uint32_t)v & 0xFFFFu) ^ 0x8000u) - 0x8000; }

/* Defines `void microaot_<name>(const P* params, const TIN* input, TOUT* output)`: every output element is
 * (TOUT)ELEMENT(params, x) of its input element x. */
#define MICROAOT_DEFINE_UNARY_KERNEL(name, P, TIN, TOUT, ELEMENT)                   \
  void microaot_##name(const P* params, const TIN* input, TOUT* output) {           \
    int32_t i;                                                                      \
    for (i = 0; i < params->size; ++i) output[i] = (TOUT)(ELEMENT(params, input[i])); \
  }

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_UNARY_H */
