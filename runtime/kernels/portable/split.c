/* SPLIT, SPLIT_V and UNPACK for every element type: per outer index, the input's next range to each output. */
#include <stddef.h>
#include <string.h>

#include "microaot/kernels/split.h"

void microaot_split(const microaot_split_params* params, const void* input, void* const* outputs) {
  const uint8_t* in = (const uint8_t*)input;
  for (int32_t outer = 0; outer < params->outer_count; ++outer) {
    for (int32_t i = 0; i < params->output_count; ++i) {
      const size_t bytes = (size_t)params->slice_bytes[i];
      memcpy((uint8_t*)outputs[i] + (size_t)outer * bytes, in, bytes);
      in += bytes;
    }
  }
}
