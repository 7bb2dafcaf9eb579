/* int8 FULLY_CONNECTED with Helium (MVE) over a folded bias (microaot/kernels/mve_folded.h): each input row
 * against four units per step, no weight sums in the loop (microaot_mve_row_times_folded,
 * microaot/internal/mve_units.h), then the output step four units per vector. The compiler picks it for
 * symmetric weights on an MVE target; shifts outside VRSHL's range (which the compiler does not make) and a
 * build without MVE take the plain C loop below over the same arguments. */
#include <stddef.h>

#include "microaot/internal/mve_units.h"
#include "microaot/kernels/mve_folded.h"

/* sum x * w + folded_bias per unit: the input offset's products are in the bias. */
static void fully_connected_folded_c(const microaot_fully_connected_params_q* p, const int8_t* input,
                                     const int8_t* weights, const int32_t* folded_bias, int8_t* output) {
  const int32_t depth = p->input_depth, units = p->output_depth;
  int32_t b, u, d;
  for (b = 0; b < p->batches; ++b) {
    const int8_t* row = input + (size_t)b * (size_t)depth;
    for (u = 0; u < units; ++u) {
      const int8_t* w = weights + (size_t)u * (size_t)depth;
      uint32_t acc = (uint32_t)folded_bias[u];
      for (d = 0; d < depth; ++d) acc += (uint32_t)((int32_t)row[d] * (int32_t)w[d]);
      output[(size_t)b * (size_t)units + (size_t)u] = MICROAOT_FOLDED_OUTPUT(p, (int32_t)acc, u);
    }
  }
}

void microaot_fully_connected_s8_mve(const microaot_fully_connected_params_q* params, const int8_t* input,
                                     const int8_t* weights, const int32_t* folded_bias, int8_t* output) {
#if MICROAOT_MVE
  const int32_t depth = params->input_depth, units = params->output_depth;
  const int32_t form = microaot_mve_shift_form(params->output_shift, units);
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE_FORM(params, form);
  int32_t b;
  if (form >= 0) {
    for (b = 0; b < params->batches; ++b) {
      microaot_mve_row_times_folded(input + (size_t)b * (size_t)depth, weights, depth, units, folded_bias, &stage,
                                    output + (size_t)b * (size_t)units);
    }
    return;
  }
#endif
  fully_connected_folded_c(params, input, weights, folded_bias, output);
}
