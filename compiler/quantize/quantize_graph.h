// Rewrites a float graph into its int8 (or 16x8) twin by TFLite's conventions (quant_params.h,
// quantizable_ops.def): the same tensors under the same ids and the same operators in the same order, with
// int8 activations, int8 weights and int32 biases (16x8: int16 activations, int8 weights, int64 biases).
// An interface type other than the activations' puts a QUANTIZE before the input (float32, uint8, int8 of
// an int16 model, ...) and a QUANTIZE or DEQUANTIZE after the output, their tensors appended after the
// model's own, as TFLite's converter does for inference_input_type / inference_output_type.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "quantize/quant_params.h"

namespace microaot {

struct QuantizeSettings {
  bool per_channel = true;                // --weights per-channel (false: per-tensor)
  DType activations = DType::kInt8;       // --activations: int8 or int16 (16x8)
  DType input_type = DType::kInt8;        // --input-type: float32, int8, uint8 or int16
  DType output_type = DType::kInt8;       // --output-type
  // --activations mixed: operators (indices into the float graph's ops) whose outputs are int16, with every
  // tensor that shares parameters with them; an operator reads its activations in its output's type (a
  // QUANTIZE int8 <-> int16 in front where the producer's type differs).
  std::set<int> int16_ops;
  // The ranges of the int16 tensors of a mixed graph (the range method's choice for int16: mse narrows an
  // int8 range that int16 would only clip); null: `ranges` serve every type.
  const std::map<int, Range>* int16_ranges = nullptr;
  bool strict = false;  // --strict: refuse an operator without an int8 rule instead of keeping it float
  // --bias-correction: weights tensor id -> the per channel (last dimension) mean of the float input of the
  // operator reading those weights, over the calibration samples; each weighted operator found here has
  // its weights' expected error on that input subtracted from its bias (quant_params.h weight_error_shift).
  std::map<int, std::vector<float>> input_means;
};
// CompileError when the interface `type` cannot be bridged to `activations` by one TFLite kernel (uint8
// with int16 activations: no QUANTIZE converts uint8 to int16).
void check_interface_type(DType type, DType activations, const std::string& option);

// Throws CompileError when the graph cannot be quantized: it is already quantized (an int8/uint8/int16
// tensor or a tensor with quantization parameters), or, with `strict`, an operator has no int8 rule (named,
// with the list of those that have one). Without `strict` such operators are kept float32: their inputs
// dequantized in front of them, their outputs quantized for the next quantized reader.
void check_quantizable(const Graph& graph, bool strict);
// The operators (indices) quantize_graph keeps float: those quantizable_ops.def does not list.
std::vector<int> float_ops(const Graph& graph);

// Whether TFLite has a 16x8 form of the operator (quantizable_ops.def int16_version); one without stays int8
// in a 16x8 or mixed model.
bool has_16x8_form(const Op& op);

// Tensors that need a calibrated range: every non-constant float32 tensor an operator reads or writes.
std::vector<int> calibrated_tensors(const Graph& graph);

// Whether the graph keeps state from one run to the next (variable tensors): calibration then runs the samples
// in order as one stream.
bool has_state(const Graph& graph);

// The quantized graph. `ranges` holds the range of every tensor calibrated_tensors() names (CompileError naming
// a tensor without one).
Graph quantize_graph(const Graph& graph, const std::map<int, Range>& ranges, const QuantizeSettings& settings);

}  // namespace microaot
