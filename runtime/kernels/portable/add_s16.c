/* ADD int16 with TFLM's reference arithmetic (left shift 15, per-input multipliers, output rescale),
 * broadcasting through the merged strides of the params. */
#include "microaot/kernels/add.h"

void microaot_add_s16(const microaot_add_params_s16* params, const int16_t* input1, const int16_t* input2,
                      int16_t* output) {
  int32_t i;
  if (params->num_dims == 0) {
    for (i = 0; i < params->flat_size; ++i) {
      output[i] = (int16_t)microaot_add_quantized_element(params, input1[i], input2[i]);
    }
  } else {
    const int32_t n = params->num_dims;
    const int32_t inner = params->output_shape[n - 1];
    const int32_t step1 = params->input1_strides[n - 1];
    const int32_t step2 = params->input2_strides[n - 1];
    microaot_add_cursor cursor = {{0}, 0, 0};
    for (i = 0; i < params->flat_size; i += inner) {
      const int16_t* a = input1 + cursor.offset1;
      const int16_t* b = input2 + cursor.offset2;
      int32_t c;
      for (c = 0; c < inner; ++c) {
        output[i + c] = (int16_t)microaot_add_quantized_element(params, a[c * step1], b[c * step2]);
      }
      microaot_add_cursor_next_row(&cursor, n, params->output_shape, params->input1_strides,
                                   params->input2_strides);
    }
  }
}
