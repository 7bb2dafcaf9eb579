// Rewrites a float graph into its int8 twin by TFLite's conventions (quant_params.h, quantizable_ops.def):
// the same tensors under the same ids and the same operators in the same order, with int8 activations and
// weights and int32 biases; with float I/O a QUANTIZE before each input and a DEQUANTIZE after each output
// (their float tensors appended after the model's own).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "quantize/quant_params.h"

namespace microaot {

struct QuantizeSettings {
  bool per_channel = true;    // --weights per-channel (false: per-tensor)
  bool float_input = false;   // --input-type float32: a QUANTIZE takes the float input
  bool float_output = false;  // --output-type float32: a DEQUANTIZE gives the float output
};

// Throws CompileError when the graph cannot be quantized: it is already quantized (an int8/uint8/int16
// tensor or a tensor with quantization parameters), or an operator has no int8 rule (named, with the list
// of those that have one).
void check_quantizable(const Graph& graph);

// Tensors that need a calibrated range: every non-constant float32 tensor an operator reads or writes.
std::vector<int> calibrated_tensors(const Graph& graph);

// The int8 graph. `ranges` holds the range of every tensor calibrated_tensors() names (CompileError naming
// a tensor without one).
Graph quantize_graph(const Graph& graph, const std::map<int, Range>& ranges, const QuantizeSettings& settings);

}  // namespace microaot
