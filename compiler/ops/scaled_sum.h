// TFLite Micro's fixed-point sum of int8 values of one scale, shared by ADD_N and CUMSUM (add_n.cc,
// cumsum.cc): each value minus the zero point is shifted left by 20 and scaled by 1/2 (its scale over twice
// itself), and the sum is rescaled once by 2 * input_scale / (2^20 * output_scale), which TFLM requires to be
// below one. The kernels' side is runtime/include/microaot/scaled_sum.h.
#pragma once

#include "ir/graph.h"
#include "ops/op_handler.h"

namespace microaot {

// Per-tensor activation quantization of `input` (role "input 0") and output 0, and a rescale below one.
void check_scaled_sum_quantization(const Graph& graph, const Op& op, int input);

// The MICROAOT_SCALED_SUM_FIELDS of the call, for inputs quantized as `input` and output 0.
void set_scaled_sum_params(const Graph& graph, const Op& op, int input, KernelCall& call);

}  // namespace microaot
