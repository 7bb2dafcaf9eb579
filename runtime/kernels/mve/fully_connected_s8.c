/* int8 FULLY_CONNECTED with Helium (MVE), bit-exact with the portable kernel: each input row (batch) against
 * two units per step, 16 products per VMLADAVA and the units' weight sums beside them (VADDVA), the row's end
 * predicated (microaot_mve_row_times_units, microaot/internal/mve_dot.h); the input offset's products are the
 * sums times the offset, added with the bias; then the output step, four units per vector, per chunk of 64. A weight zero point
 * other than 0 and shifts outside VRSHL's range take the portable code; so does a build without MVE. */
#include <stddef.h>

#include "microaot/internal/mve_dot.h"
#include "microaot/kernels/fully_connected.h"

#if MICROAOT_MVE
void microaot_fully_connected_s8_portable(const microaot_fully_connected_params_q* params, const int8_t* input,
                                          const int8_t* weights, const int32_t* bias, int8_t* output);
#define MICROAOT_FN microaot_fully_connected_s8_portable
#else
#define MICROAOT_FN microaot_fully_connected_s8
#endif
#define MICROAOT_DTYPE s8
#include "microaot/internal/templates/fully_connected.h"

#if MICROAOT_MVE
void microaot_fully_connected_s8(const microaot_fully_connected_params_q* params, const int8_t* input,
                                 const int8_t* weights, const int32_t* bias, int8_t* output) {
  const int32_t depth = params->input_depth, units = params->output_depth;
  const int32_t form = microaot_mve_shift_form(params->output_shift, units);
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE_FORM(params, form);
  int32_t b;
  if (params->filter_offset != 0 || form < 0) {
    microaot_fully_connected_s8_portable(params, input, weights, bias, output);
    return;
  }
  for (b = 0; b < params->batches; ++b) {
    microaot_mve_row_times_units(input + (size_t)b * (size_t)depth, weights, depth, units, bias,
                                 params->input_offset, &stage, output + (size_t)b * (size_t)units);
  }
}
#endif /* MICROAOT_MVE */
