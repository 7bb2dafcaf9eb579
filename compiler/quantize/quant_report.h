// The report `microaot quantize` writes beside the model (OUT.quant.txt, OUT.quant.json): per layer the
// SQNR of the quantized activation (dequantized) against the float one over the calibration samples, and per
// output the SQNR, the largest absolute error and the top-1 agreement (the position of the largest value
// along the last dimension, for outputs that are class scores).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace microaot {

struct LayerError {
  int tensor = -1;
  std::string name;
  std::string op;  // the operator that writes it, e.g. "CONV_2D (op 3)"
  std::string type;  // "int8" or "int16"
  float scale = 0.0f;
  int zero_point = 0;
  double sqnr_db = 0.0;
};

struct OutputError {
  int tensor = -1;
  std::string name;
  double sqnr_db = 0.0;
  double max_abs_error = 0.0;
  int rows = 0;           // class-score rows compared (elements / last dimension); 0 when the last dimension is 1
  int top1_agree = 0;     // rows whose largest position matches the float model's
};

struct QuantReport {
  std::string model;
  std::string output;
  std::string method;
  std::string weights;
  std::string activations;  // int8 or int16
  std::string input_type;
  std::string output_type;
  size_t samples = 0;
  // --activations mixed: the target, the layers (as "tensor N, OP (op i)") kept int16 because the all-int8
  // model missed the target there, and the arena (MODEL_ARENA_SIZE) all-int8 and mixed.
  double target_sqnr_db = 0.0;
  std::vector<std::string> kept_int16;
  long long arena_int8 = 0, arena_mixed = 0;
  std::vector<LayerError> layers;
  std::vector<OutputError> outputs;
  std::vector<std::string> kept_float;  // operators without an int8 form, kept float32 ("EXP (op 3)")
  std::string bias_correction = "off";  // on|off
  int equalized_pairs = 0;              // depthwise -> conv pairs cross-layer equalised
};

// Compares one output over all samples (ref/got: per sample, the float values; last_dim: the size of the
// last dimension).
OutputError compare_output(const std::vector<std::vector<float>>& ref, const std::vector<std::vector<float>>& got,
                           int last_dim);

constexpr const char* kReportTextHeader = "microaot quantize report";
constexpr const char* kReportJsonKey = "microaot_quantize_report";

std::string report_text(const QuantReport& report);
std::string report_json(const QuantReport& report);

// The per-layer table (under `heading`) and the outputs' lines, as every error report prints them
// (quantize's, and compile --cluster-weights --calibration's); and the same as JSON "layers" and "outputs".
std::string errors_text(const std::string& heading, const std::vector<LayerError>& layers,
                        const std::vector<OutputError>& outputs);
void add_errors_json(nlohmann::json& report, const std::vector<LayerError>& layers,
                     const std::vector<OutputError>& outputs);
// A whole error report around the report's own lines: as text, "HEADER: MODEL -> OUTPUT", `body`, then
// errors_text under `heading`; as JSON, `fields` with the report's key (1) and add_errors_json's.
std::string errors_report_text(const char* header, const std::string& model, const std::string& output,
                               const std::string& body, const std::string& heading,
                               const std::vector<LayerError>& layers, const std::vector<OutputError>& outputs);
std::string errors_report_json(const char* key, const nlohmann::json& fields, const std::vector<LayerError>& layers,
                               const std::vector<OutputError>& outputs);
// An output's line as the commands print it: "output 'NAME': SQNR 41.20 dB, largest error 0.01, top-1 ...".
std::string output_summary(const OutputError& e);

}  // namespace microaot
