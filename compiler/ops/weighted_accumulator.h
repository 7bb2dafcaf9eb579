// The accumulator of the weighted operators (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV) as
// TFLite Micro chooses it, and the bounds that keep it exact: int8 activations sum in int32; int16
// activations (16x8) sum in the bias type, int64, or int32 for a 32-bit bias (or, without a bias, when the
// options' quantized_bias_type says INT32). A 64-bit sum is requantized by TFLite's 16x8 multiply, which
// wants |sum| < 2^47 and a shift of at most 7.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ops/quant_math.h"

namespace microaot {

// kInt32, kInt64 or kFloat32 (float activations), for the op's input type and bias (kNoTensor: none).
DType accumulator_type(const Graph& graph, int input, int bias, bool int32_bias_option);

// The kernel stem's suffix: "_bias32" for int16 activations summed in int32, else "".
std::string accumulator_suffix(const Graph& graph, int input, DType accumulator);

// The largest |sum| the accumulator may reach: INT32_MAX, or 2^47 - 1 for the 16x8 requantization.
int64_t accumulator_limit(DType accumulator);

// The largest |x - zero point| of an int8 or int16 input.
int64_t max_abs_input(const Tensor& input);

// Element i of an integer constant (int8 to int64, little-endian), sign-extended.
int64_t constant_int(const Tensor& t, int64_t i);

// The largest |sum| of the weights times the largest input plus the bias, per output channel of a weight
// tensor whose channels lie along `axis`, refused over the accumulator's limit. role names the weights.
void expect_accumulator_fits(const Graph& graph, const Op& op, int input, int weights, int bias, int axis,
                             DType accumulator);

// 64-bit accumulators: every shift within TFLite's 16x8 requantization (at most 7).
void expect_wide_requantizable(const Graph& graph, const Op& op, const std::vector<QuantizedMultiplier>& multipliers,
                               DType accumulator);

}  // namespace microaot
