/* PRELU int8 with the identity side as a compile-time table: an input at or above its zero point reads its output
 * (one load), one below multiplies by its alpha and rescales (microaot_prelu_alpha_side). The params are read into
 * locals once a row: an int8 store may alias them, and the generic kernel reloads nine fields an element. */
#include "microaot/kernels/activations.h"

static void prelu_table_row(const void* params, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                            void* output, ptrdiff_t done, int32_t n) {
  const microaot_prelu_table_params_s8* p = (const microaot_prelu_table_params_s8*)params;
  const int8_t* x = (const int8_t*)inputs[0] + at[0];
  const int8_t* alpha = (const int8_t*)inputs[1] + at[1];
  const int8_t* const table = p->table + 128;
  const int32_t step_x = step[0], step_alpha = step[1], input_offset = p->input_offset;
  const int32_t alpha_offset = p->alpha_offset, multiplier = p->alpha_multiplier, output_offset = p->output_offset;
  const int32_t lo = p->activation_min, hi = p->activation_max;
  const int shift = (int)p->alpha_shift;
  int8_t* o = (int8_t*)output + done;
  int32_t c;
  for (c = 0; c < n; ++c) {
    const int32_t q = x[c * step_x], value = q + input_offset;
    if (value >= 0) {
      o[c] = table[q];
    } else {
      const int32_t a = alpha[c * step_alpha] + alpha_offset;
      o[c] = (int8_t)microaot_clamp_s32(microaot_prelu_alpha_side(value, a, multiplier, shift, output_offset), lo, hi);
    }
  }
}

void microaot_prelu_s8_table(const microaot_prelu_table_params_s8* params, const int8_t* input, const int8_t* alpha,
                             int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  inputs[0] = input;
  inputs[1] = alpha;
  microaot_broadcast_walk(&walk, params, inputs, output, prelu_table_row);
}
