/* CONCATENATION for every element type: per outer index, each input's slice in turn. */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/concatenation.h"

void microaot_concatenation(const microaot_concatenation_params* params, const void* const* inputs, void* output) {
  uint8_t* out = (uint8_t*)output;
  for (int32_t outer = 0; outer < params->outer_count; ++outer) {
    for (int32_t i = 0; i < params->input_count; ++i) {
      const size_t bytes = (size_t)params->slice_bytes[i];
      memcpy(out, (const uint8_t*)inputs[i] + (size_t)outer * bytes, bytes);
      out += bytes;
    }
  }
}
