/* CONCATENATION for every element type: per outer index, each input's slice in turn; a slice of fewer than 16
 * bytes byte by byte (a memcpy of a run-time size is a library call per slice). */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/concatenation.h"

void microaot_concatenation(const microaot_concatenation_params* params, const void* const* inputs, void* output) {
  uint8_t* out = (uint8_t*)output;
  for (int32_t outer = 0; outer < params->outer_count; ++outer) {
    for (int32_t i = 0; i < params->input_count; ++i) {
      const size_t bytes = (size_t)params->slice_bytes[i];
      const uint8_t* const from = (const uint8_t*)inputs[i] + (size_t)outer * bytes;
      size_t k;
      if (bytes >= 16) {
        memcpy(out, from, bytes);
        out += bytes;
      } else {
        for (k = 0; k < bytes; ++k) *out++ = from[k];
      }
    }
  }
}
