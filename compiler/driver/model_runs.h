// Runs a model on the host over calibration samples with every tensor kept, and compares two such runs layer by
// layer: `quantize` (float model against its quantized one) and `compile --cluster-weights --calibration`
// (a model against its clustered rewrite) measure their error reports with it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "quantize/calibration_data.h"
#include "quantize/quant_report.h"

namespace microaot {

using TensorValues = std::map<int, std::vector<float>>;  // tensor id -> float values of one sample

// Where and how the host runs build: the C compiler and flags (empty: $CC or cc), the user's custom operators.
struct HostRunSettings {
  std::string cc, cflags;
  std::vector<std::string> custom_ops, custom_sources;
};

// The model inputs as calibration reads them: each input's name and shape, and for an integer input with a
// scale its type and quantization (files may then also hold the input's own encoding).
std::vector<CalibrationInputSpec> input_specs(const Graph& g);

// Runs the .tflite `bytes` (read as `g`: tensor ids are its indices) on every sample with every intermediate
// kept; per sample, every tensor's values as floats (integer ones dequantized). One host build serves all
// samples (`run --batch --fresh-state`; a model with state runs them in order as one stream). `dir` is scratch.
std::vector<TensorValues> run_and_dump(const std::vector<uint8_t>& bytes, const Graph& g,
                                       const std::vector<CalibrationSample>& samples, const HostRunSettings& host,
                                       const std::string& dir);

// Per operator of `ref` (its first output), the SQNR of `got`'s values against `ref`'s over all samples (the
// tensor's type and quantization as `got_graph` has it), and per output the SQNR, largest error and top-1
// agreement. The graphs share tensor ids.
struct RunComparison {
  std::vector<LayerError> layers;
  std::vector<OutputError> outputs;
};
RunComparison compare_runs(const Graph& ref_graph, const Graph& got_graph, const std::vector<TensorValues>& ref,
                           const std::vector<TensorValues>& got);

}  // namespace microaot
