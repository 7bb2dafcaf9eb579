/* ADD (or SUB) int8 over the linear form the compiler fitted for the layer (microaot/kernels/add.h), over the
 * broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/add.h"

typedef struct {
  const int32_t* form;
  int32_t lo, hi;
} linear_row_args;

static void linear_row(const void* args, const void* const* inputs, const ptrdiff_t* at, const int32_t* step,
                       void* output, ptrdiff_t done, int32_t n) {
  const linear_row_args* r = (const linear_row_args*)args;
  const int8_t* a = (const int8_t*)inputs[0] + at[0];
  const int8_t* b = (const int8_t*)inputs[1] + at[1];
  int8_t* out = (int8_t*)output + done;
  int32_t c;
  for (c = 0; c < n; ++c) out[c] = (int8_t)microaot_add_linear_output(r->form, a[c * step[0]], b[c * step[1]], r->lo, r->hi);
}

void microaot_add_s8_linear(const microaot_add_params_q* params, const int8_t* input1, const int8_t* input2,
                            const int32_t* form, int8_t* output) {
  const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);
  const void* inputs[2];
  linear_row_args args;
  args.form = form;
  args.lo = params->activation_min;
  args.hi = params->activation_max;
  inputs[0] = input1;
  inputs[1] = input2;
  microaot_broadcast_walk(&walk, &args, inputs, output, linear_row);
}
