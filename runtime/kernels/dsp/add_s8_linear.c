/* ADD (or SUB) int8 over the compiler's linear form (microaot/kernels/add.h) for a cpu with the DSP extension,
 * two full operands (microaot/internal/dsp_add_linear.h): two SMLAW per element, the outputs packed by word
 * (5.4 instructions per element with the int8 clamp, 5.9 with a narrower one) against
 * twenty for the rescaling of microaot_add_s8. A layer with one operand
 * broadcast along its rows or channels takes add_s8_folded instead (kernels/dsp/add_s8_folded.c), so that a
 * model without one links none of its code or its table's stack. */
#include "microaot/internal/dsp_add_linear.h"

static void linear_row(const void* form, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                       void* output, ptrdiff_t done, int32_t n) {
  microaot_dsp_linear_row((const microaot_dsp_linear_form*)form, (const int8_t*)inputs[0] + at[0],
                          (const int8_t*)inputs[1] + at[1], step, (int8_t*)output + done, n);
}

void microaot_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const microaot_dsp_linear_form f = microaot_dsp_linear_form_of(params, form);
  const void* inputs[2];
  if (params->num_dims == 0) {
    microaot_dsp_linear_flat(&f, input1, input2, output, params->flat_size);
    return;
  }
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &f, inputs, output, linear_row);
}
