/* int8 FULLY_CONNECTED over palettised weights (microaot/internal/palette.h), bit-exact with fully_connected_s8:
 * unit by unit, its row decoded once into the scratch, then every batch's sum over it in depth order. */
#include "microaot/internal/palette.h"
#define MICROAOT_DTYPE s8
#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/fully_connected.h"

microaot_status microaot_fully_connected_s8_palette(const microaot_fully_connected_params_q* params,
                                                    const int8_t* input, const uint8_t* indices, const int8_t* table,
                                                    const int32_t* bias, int8_t* output, void* scratch) {
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
  int8_t* row = (int8_t*)scratch;
  int bits;
  int32_t b, u, d;
  if (indices == NULL || table == NULL || row == NULL) return MICROAOT_STATUS_NULL_POINTER;
  bits = microaot_palette_bits(indices);
  if (bits == 0) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (u = 0; u < units; ++u) {
    microaot_palette_decode(indices, bits, table, (size_t)u, (size_t)depth, row);
    for (b = 0; b < params->batches; ++b) {
      const int8_t* in_row = input + (size_t)b * (size_t)depth;
      int32_t acc = 0;
      for (d = 0; d < depth; ++d) {
        acc += ((int32_t)row[d] + params->filter_offset) * ((int32_t)in_row[d] + params->input_offset);
      }
      acc += bias != NULL ? bias[u] : 0;
      output[(size_t)b * (size_t)units + (size_t)u] = MICROAOT_OUTPUT(params, acc, u);
    }
  }
  return MICROAOT_STATUS_OK;
}
