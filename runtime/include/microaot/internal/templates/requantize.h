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

void MICROAOT_FN(const microaot_requantize_params* params, const MICROAOT_REQUANTIZE_IN* input,
                 MICROAOT_REQUANTIZE_OUT* output) {
  /* microaot_multiply_by_quantized_multiplier with the shift's split and the rounding's mask out of the loop */
  const int left = params->output_shift > 0 ? (int)params->output_shift : 0;
  const int right = params->output_shift > 0 ? 0 : (int)-params->output_shift;
  const int32_t mask = (int32_t)(((int64_t)1 << right) - 1), half = mask >> 1;
  const int32_t multiplier = params->output_multiplier, input_offset = params->input_offset;
  const int64_t output_offset = params->output_offset;
  int32_t i;
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
