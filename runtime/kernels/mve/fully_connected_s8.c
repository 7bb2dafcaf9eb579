/* int8 FULLY_CONNECTED with Helium (MVE), bit-exact with the portable kernel: each input row (batch) against
 * two units per step, 16 products per VMLADAVA and the units' weight sums beside them (VADDVA), the row's end
 * predicated (microaot/internal/mve_dot.h); the input offset's products are the sums times the offset, added
 * with the bias; then the output step, four units per vector, per chunk of 64 units. A weight zero point
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
/* The units whose sums the stack holds: the output step runs per chunk of them. */
#define MVE_FC_CHUNK 64

/* Unit u's sum: bias + x . w_u + input_offset * sum w_u, mod 2^32 as the reference's int32 sum. */
static int32_t fc_sum(const int32_t* bias, int32_t u, int32_t offset, int32_t dot, int32_t weight_sum) {
  const uint32_t b = (uint32_t)(bias != NULL ? bias[u] : 0);
  return (int32_t)(b + (uint32_t)dot + (uint32_t)offset * (uint32_t)weight_sum);
}

/* Units [first, first + count) of one input row into out (count at most MVE_FC_CHUNK). */
static void fc_chunk(const microaot_fully_connected_params_q* params, const microaot_mve_output_stage* stage,
                     const int8_t* row, const int8_t* weights, const int32_t* bias, int32_t first, int32_t count,
                     int8_t* out) {
  const int32_t depth = params->input_depth, end = first + count;
  int32_t sums[MVE_FC_CHUNK], acc[4];
  int32_t u;
  for (u = first; u < end; u += 2) {
    const int32_t second = u + 1 < end ? u + 1 : u; /* an odd last unit pairs with itself */
    const int8_t* w0 = weights + (size_t)u * (size_t)depth;
    microaot_mve_set4(acc, 0, 0, 0, 0);
    microaot_mve_dot_1x2_sums(row, w0, w0 + (size_t)(second - u) * (size_t)depth, depth, acc);
    sums[u - first] = fc_sum(bias, u, params->input_offset, acc[0], acc[2]);
    sums[second - first] = fc_sum(bias, second, params->input_offset, acc[1], acc[3]);
  }
  microaot_mve_output_row(stage, sums, count, out);
}

void microaot_fully_connected_s8(const microaot_fully_connected_params_q* params, const int8_t* input,
                                 const int8_t* weights, const int32_t* bias, int8_t* output) {
  const microaot_mve_output_stage stage = MICROAOT_MVE_OUTPUT_STAGE(params, params->output_depth);
  const int32_t depth = params->input_depth, units = params->output_depth;
  int32_t b, u;
  if (params->filter_offset != 0 || !microaot_mve_shifts_fit(params->output_shift, units)) {
    microaot_fully_connected_s8_portable(params, input, weights, bias, output);
    return;
  }
  for (b = 0; b < params->batches; ++b) {
    const int8_t* row = input + (size_t)b * (size_t)depth;
    int8_t* out = output + (size_t)b * (size_t)units;
    for (u = 0; u < units; u += MVE_FC_CHUNK) {
      const int32_t count = units - u < MVE_FC_CHUNK ? units - u : MVE_FC_CHUNK;
      fc_chunk(params, &stage, row, weights, bias, u, count, out + u);
    }
  }
}
#endif /* MICROAOT_MVE */
