// The quantization rules of the recurrent operators (quantizable_ops.def kSvdf, kLstm), by TFLite's
// full-integer conventions for the kernels TFLM runs, and the calibration values of their state tensors,
// which no run dumps (they live outside the arena): they are computed here from the operators' inputs.
#pragma once

#include <map>
#include <vector>

#include "ir/graph.h"
#include "quantize/quant_params.h"

namespace microaot {

// SVDF: input and output int8 activations (already set); weights_feature int8 symmetric per tensor,
// weights_time int16 holding 10 bits (scale max |w| / 512), the state int16 symmetric from its calibrated
// range, the bias int32 at state x weights_time scale (TFLite's operator_property.cc; TFLM checks the product).
void quantize_svdf(const Graph& source, Graph& out, const Op& op, const std::map<int, Range>& ranges);

// UNIDIRECTIONAL_SEQUENCE_LSTM for TFLM's integer kernel: input and output activations (already set, int8 or
// int16); the hidden state (input 18) the output's parameters; the cell state (input 19) int16 with a power
// of two scale 2^k / 32768, 2^k the smallest power (k in 0..10) above its calibrated |range| (TFLite's
// quantizer); the eight weights int8 symmetric per tensor; each gate's bias at input x input-weight scale
// (int32, or int64 with int16 activations).
void quantize_lstm(const Graph& source, Graph& out, const Op& op, const std::map<int, Range>& ranges);

// The values each recurrent operator's state takes over the calibration runs (`runs`: per sample, tensor id
// -> float values; in order, the state carried from one to the next as calibration ran them), keyed by the
// state tensor: SVDF's state holds its input times weights_feature (each filter's newest memory entry);
// LSTM's cell state is run again in float from the operator's dumped input.
std::map<int, std::vector<float>> state_values(const Graph& graph,
                                               const std::vector<std::map<int, std::vector<float>>>& runs);

}  // namespace microaot
