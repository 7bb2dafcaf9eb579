/* The requantize template (QUANTIZE integer -> integer, TFLM's Requantize): rescale to the output's scale and
 * zero point. The including file defines MICROAOT_DTYPE_IN, MICROAOT_DTYPE_OUT (s8, s16, u8 or s32) and
 * MICROAOT_FN (declared in microaot/kernels/quantize.h). */
#include "microaot/fixedpoint.h"
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/quantize.h"

#define MICROAOT_REQUANTIZE_IN MICROAOT_CAT(MICROAOT_ELEM_, MICROAOT_DTYPE_IN)
#define MICROAOT_REQUANTIZE_OUT MICROAOT_CAT(MICROAOT_ELEM_, MICROAOT_DTYPE_OUT)
#define MICROAOT_REQUANTIZE_LO MICROAOT_CAT(MICROAOT_MIN_, MICROAOT_DTYPE_OUT)
#define MICROAOT_REQUANTIZE_HI MICROAOT_CAT(MICROAOT_MAX_, MICROAOT_DTYPE_OUT)

/* The common case in fewer steps: an 8- or 16-bit input whose offset keeps x within 18 bits, no left shift, a
 * right shift below 32 and an output offset within 2^30. Then the high part is floor((x m + 2^30) / 2^31) (x is
 * never INT32_MIN, so TFLM's high multiply does not saturate) and the rounding right shift
 * (high + round - [high < 0]) >> right, exactly, and the sum with the offset stays in int32 (|high| < 2^17).
 * Returns 0, writing nothing, for any other params. */
static int requantize_narrow(const microaot_requantize_params* params, const MICROAOT_REQUANTIZE_IN* input,
                             MICROAOT_REQUANTIZE_OUT* output) {
  const int32_t multiplier = params->output_multiplier, input_offset = params->input_offset;
  const int32_t output_offset = params->output_offset;
  const MICROAOT_REQUANTIZE_IN* const end = input + (params->size > 0 ? params->size : 0);
  int right;
  int32_t round, negative;
  if (sizeof(MICROAOT_REQUANTIZE_IN) > 2 || params->output_shift > 0 || params->output_shift < -31 ||
      input_offset < -65536 || input_offset > 65536 || output_offset < -(1 << 30) || output_offset > (1 << 30)) {
    return 0;
  }
  right = (int)-params->output_shift;
  round = right > 0 ? (int32_t)1 << (right - 1) : 0, negative = right > 0 ? -1 : 0;
  for (; input != end; ++input, ++output) {
    const int32_t x = (int32_t)*input + input_offset;
    const int32_t high = (int32_t)(((int64_t)x * multiplier + ((int64_t)1 << 30)) >> 31);
    const int32_t y = ((high + round + ((high >> 31) & negative)) >> right) + output_offset;
    *output = (MICROAOT_REQUANTIZE_OUT)(y < MICROAOT_REQUANTIZE_LO   ? MICROAOT_REQUANTIZE_LO
                                        : y > MICROAOT_REQUANTIZE_HI ? MICROAOT_REQUANTIZE_HI
                                                                     : y);
  }
  return 1;
}

void MICROAOT_FN(const microaot_requantize_params* params, const MICROAOT_REQUANTIZE_IN* input,
                 MICROAOT_REQUANTIZE_OUT* output) {
  /* microaot_multiply_by_quantized_multiplier with the shift's split and the rounding's mask out of the loop */
  const int left = params->output_shift > 0 ? (int)params->output_shift : 0;
  const int right = params->output_shift > 0 ? 0 : (int)-params->output_shift;
  const int32_t mask = (int32_t)(((int64_t)1 << right) - 1), half = mask >> 1;
  const int32_t multiplier = params->output_multiplier, input_offset = params->input_offset;
  const int64_t output_offset = params->output_offset;
  int32_t i;
  if (requantize_narrow(params, input, output)) return;
  for (i = 0; i < params->size; ++i) {
    /* Wraps where TFLM's int32 subtraction of the zero point would overflow (int32 inputs only). */
    const int32_t x = microaot_wrapping_add_s32((int32_t)input[i], input_offset);
    const int32_t high = microaot_sat_rounding_doubling_high_mul((int32_t)((uint32_t)x << left), multiplier);
    const int32_t scaled = (high >> right) + ((high & mask) > half + (high < 0 ? 1 : 0) ? 1 : 0);
    /* Summed in 64 bits: equals TFLM's int32 sum wherever that one does not overflow. */
    int64_t y = (int64_t)scaled + output_offset;
    y = y < MICROAOT_REQUANTIZE_LO ? MICROAOT_REQUANTIZE_LO : (y > MICROAOT_REQUANTIZE_HI ? MICROAOT_REQUANTIZE_HI : y);
    output[i] = (MICROAOT_REQUANTIZE_OUT)y;
  }
}
