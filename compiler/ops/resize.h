// RESIZE_NEAREST_NEIGHBOR's source index, as TFLite Micro computes it: the ONNX frontend checks an ONNX
// nearest Resize against it before mapping one onto the other.
#pragma once

#include <cstdint>

#include "ops/op_options.h"

namespace microaot {

// The input row (or column) that output row `i` copies, for an `in_size` -> `out_size` resize.
int32_t resize_nearest_source(int i, int in_size, int out_size, const ResizeOptions& options);

}  // namespace microaot
