/* The int8 FULLY_CONNECTED over packed weights (microaot/kernels/packed.h): batches two at a time against every
 * unit pair. The including file defines MICROAOT_PACKED_WIDE_WEIGHTS (0: int8 weight words, 1: int16,
 * microaot/internal/packed_dot.h) and the function name MICROAOT_FN. */
#include <stddef.h>

#include "microaot/packed_matmul.h"

microaot_status MICROAOT_FN(const microaot_fully_connected_params_q* params, const int8_t* input,
                            const int32_t* weights, const int32_t* requant, int8_t* output, void* scratch) {
  const microaot_dsp_output_stage stage = MICROAOT_DSP_OUTPUT_STAGE(params, NULL);
  const size_t depth = (size_t)params->input_depth, units = (size_t)params->output_depth;
  uint32_t* const rows = (uint32_t*)scratch;
  int32_t b;
  if (requant == NULL) return MICROAOT_STATUS_NULL_POINTER;
  for (b = 0; b < params->batches; b += 2) {
    const int8_t* in = input + (size_t)b * depth;
    int8_t* out = output + (size_t)b * units;
    microaot_packed_row_pair(in, b + 1 < params->batches ? in + depth : NULL, params->input_depth, weights,
                             params->output_depth, &stage, requant, rows, out, out + units);
  }
  return MICROAOT_STATUS_OK;
}
