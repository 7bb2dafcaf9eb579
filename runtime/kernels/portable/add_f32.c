/* ADD float: input1 + input2 then the activation clamp, as TFLM's reference; broadcasting through the
 * merged strides of the params. */
#include "microaot/fixedpoint.h"
#include "microaot/kernels/add.h"

void microaot_add_f32(const microaot_add_params_f32* params, const float* input1, const float* input2,
                      float* output) {
  const float lo = params->activation_min;
  const float hi = params->activation_max;
  int32_t i;
  if (params->num_dims == 0) {
    for (i = 0; i < params->flat_size; ++i) output[i] = microaot_clamp_f32(input1[i] + input2[i], lo, hi);
  } else {
    const int32_t n = params->num_dims;
    const int32_t inner = params->output_shape[n - 1];
    const int32_t step1 = params->input1_strides[n - 1];
    const int32_t step2 = params->input2_strides[n - 1];
    microaot_add_cursor cursor = {{0}, 0, 0};
    for (i = 0; i < params->flat_size; i += inner) {
      const float* a = input1 + cursor.offset1;
      const float* b = input2 + cursor.offset2;
      int32_t c;
      for (c = 0; c < inner; ++c) output[i + c] = microaot_clamp_f32(a[c * step1] + b[c * step2], lo, hi);
      microaot_add_cursor_next_row(&cursor, n, params->output_shape, params->input1_strides,
                                   params->input2_strides);
    }
  }
}
