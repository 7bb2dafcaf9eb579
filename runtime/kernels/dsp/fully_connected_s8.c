/* int8 FULLY_CONNECTED with the DSP extension, bit-exact with the portable kernel: input rows (batches) two at
 * a time against weight rows (units) two at a time, both with their zero-point offsets (microaot/internal/dsp_dot.h). */
#include <stddef.h>

#include "microaot/internal/dsp_dot.h"
#include "microaot/kernels/fully_connected.h"

void microaot_fully_connected_s8(const microaot_fully_connected_params_q* params, const int8_t* input,
                                 const int8_t* weights, const int32_t* bias, int8_t* output) {
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(params, bias);
  const size_t depth = (size_t)params->input_depth, units = (size_t)params->output_depth;
  int32_t b;
  for (b = 0; b < params->batches; b += 2) {
    const int pair = b + 1 < params->batches;
    const int8_t* in0 = input + (size_t)b * depth;
    microaot_dsp_rows_times_weights(in0, pair ? in0 + depth : NULL, params->input_offset, weights,
                                    params->filter_offset, params->input_depth, params->output_depth, &stage,
                                    output + (size_t)b * units, output + (size_t)(b + 1) * units);
  }
}
