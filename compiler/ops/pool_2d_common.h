// What AVERAGE_POOL_2D and MAX_POOL_2D share: options, window geometry, quantization rules and the
// params struct (microaot_pool_2d_params_<dtype> in runtime/include/microaot/kernels/pooling.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_handler.h"

namespace microaot {

// Checks one int8/float32 NHWC input, one output of the same type, the output shape implied by the
// options (TFLite SAME/VALID arithmetic), and int8 input/output sharing one quantization (as TFLM).
void check_pool_2d(const Graph& graph, const Op& op);

// The call of the stem <kernel>_<dtype>, kernel being "average_pool_2d" or "max_pool_2d".
KernelCall lower_pool_2d(const Graph& graph, const Op& op, const std::string& kernel);

// The row-wise in-place option (the overlap variant) over input 0.
std::vector<InPlaceOption> pool_2d_in_place(const Graph& graph, const Op& op);

// Pool2DOptions from the operator's table (both pools use it).
OpOptions read_pool_2d_options(const Graph& graph, const Op& op, const tflite::Operator& source);

// Window elements visited over the whole output (reported as the op's MACs).
int64_t pool_2d_window_ops(const Graph& graph, const Op& op);

}  // namespace microaot
