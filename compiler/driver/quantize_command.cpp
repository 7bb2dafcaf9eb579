// `microaot quantize`: a float model and calibration samples in, an int8 (or 16x8) .tflite and its error report out.
// The float graph (quantize/float_model.h) is written as a .tflite, compiled and run on the host with every
// tensor kept (`run --dump-tensors`, one build for all samples) to measure each activation's range; the
// quantized graph is then written, run the same way on the same samples, and compared layer by layer.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "codegen/emit.h"
#include "driver/commands.h"
#include "driver/model_runs.h"
#include "driver/output_dir.h"
#include "frontend/tflite_reader.h"
#include "ir/tensor_compare.h"
#include "quantize/calibration_data.h"
#include "quantize/cross_layer_equalization.h"
#include "quantize/float_model.h"
#include "quantize/quant_report.h"
#include "quantize/quantize_graph.h"
#include "quantize/recurrent_quant.h"
#include "quantize/tflite_writer.h"
#include "support/diagnostics.h"
#include "support/version.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
constexpr const char* kDescription = "microaot quantize";

std::map<int, Range> measure_ranges(const Graph& g, const std::vector<TensorValues>& runs, RangeMethod method,
                                    DType type) {
  std::map<int, Range> ranges;
  for (int id : calibrated_tensors(g)) {
    std::vector<float> all;
    for (size_t k = 0; k < runs.size(); ++k) {
      const auto it = runs[k].find(id);
      if (it == runs[k].end()) continue;
      if (!std::all_of(it->second.begin(), it->second.end(), [](float v) { return std::isfinite(v); })) {
        throw CompileError("calibration sample " + std::to_string(k) + " makes " + describe_tensor(g, id) +
                           " infinite or NaN in the float model; no integer range fits it");
      }
      all.insert(all.end(), it->second.begin(), it->second.end());
    }
    if (!all.empty()) ranges[id] = estimate_range(std::move(all), method, type);
  }
  for (auto& [id, v] : state_values(g, runs)) {  // recurrent state: int16 whatever the activations
    if (!v.empty()) ranges[id] = estimate_range(std::move(v), method, DType::kInt16);
  }
  return ranges;
}

DType interface_type(const std::string& value, DType activations, const char* option) {
  if (value.empty()) return activations;
  const DType t = dtype_from_name(value);
  if (t != DType::kFloat32 && t != DType::kInt8 && t != DType::kUInt8 && t != DType::kInt16) {
    throw UsageError(std::string(option) + " '" + value + "' is not float32, int8, uint8 or int16");
  }
  return t;
}

QuantizeSettings settings_of(const QuantizeCommandOptions& o) {
  if (o.activations != "int8" && o.activations != "int16" && o.activations != "mixed") {
    throw UsageError("--activations '" + o.activations + "' is not int8, int16 or mixed");
  }
  if ((o.activations == "mixed") != (o.target_sqnr_db > 0.0)) {
    throw UsageError("--activations mixed takes --target-sqnr DB (a positive number of dB), and --target-sqnr "
                     "takes --activations mixed");
  }
  QuantizeSettings s;
  s.activations = o.activations == "int16" ? DType::kInt16 : DType::kInt8;
  if (o.weights != "per-channel" && o.weights != "per-tensor") {
    throw UsageError("--weights '" + o.weights + "' is not per-channel or per-tensor");
  }
  s.per_channel = o.weights == "per-channel";
  s.strict = o.strict;
  s.input_type = interface_type(o.input_type, s.activations, "--input-type");
  s.output_type = interface_type(o.output_type, s.activations, "--output-type");
  try {
    check_interface_type(s.input_type, s.activations, "--input-type");
    check_interface_type(s.output_type, s.activations, "--output-type");
  } catch (const CompileError& e) {
    throw UsageError(e.what());
  }
  return s;
}

std::string report_base(const std::string& output) {
  const fs::path p(output);
  return (p.extension() == ".tflite" ? p.parent_path() / p.stem() : p).string();
}

std::string file_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
// The files quantize may replace: the ones it wrote (a model whose description it set, its reports).
bool our_model(const std::string& path) {
  try {
    const std::string text = file_text(path);
    return outline_tflite(std::vector<uint8_t>(text.begin(), text.end())).description.rfind(kDescription, 0) == 0;
  } catch (const CompileError&) {
    return false;
  }
}
bool our_text_report(const std::string& path) { return file_text(path).rfind(kReportTextHeader, 0) == 0; }
bool our_json_report(const std::string& path) {
  return file_text(path).find(std::string("\"") + kReportJsonKey + "\"") != std::string::npos;
}

struct OutputFile {
  std::string path;
  std::string contents;
  bool (*ours)(const std::string&);
};

// Before any work: no output may be the input model (not even with --force).
void refuse_input_as_output(const std::vector<std::string>& outputs, const std::string& model) {
  std::error_code ec;
  for (const std::string& path : outputs) {
    if (fs::weakly_canonical(path, ec) == fs::weakly_canonical(model, ec)) {
      throw CompileError("refusing to write the output to '" + path + "': it is the input model '" + model +
                         "' (not even with --force)");
    }
  }
}

// All three files are checked before any is written: a refusal leaves everything as it was.
void write_outputs(const std::vector<OutputFile>& files, const QuantizeCommandOptions& o) {
  OutputPolicy policy;
  policy.force = o.force;
  policy.inputs = {o.model_path};
  for (const OutputFile& f : files) {
    std::error_code ec;
    if (fs::exists(f.path, ec) && fs::is_regular_file(f.path, ec) && !f.ours(f.path) && !o.force) {
      throw CompileError("'" + f.path + "' exists and was not written by microaot quantize; nothing was written "
                         "(--force moves it aside to " + f.path + ".microaot-backup-N)");
    }
  }
  for (const OutputFile& f : files) {
    const std::string backup = write_output_file(f.path, f.contents, policy, f.ours);
    if (!backup.empty()) std::fprintf(stderr, "microaot: moved the previous '%s' to '%s'\n", f.path.c_str(), backup.c_str());
  }
}

// The options `quantize` and `compile --quantize` share (on compile, each needs --quantize).
void add_quantize_settings(CLI::App& app, QuantizeCommandOptions& o, bool on_compile) {
  const std::vector<CLI::Option*> added = {
      app.add_option("--weights", o.weights, "per-channel (default; along the output channels) or per-tensor"),
  app.add_option("--activations", o.activations, "int8 (default), int16 (16x8: int16 activations, int8 weights, "
                                                 "int64 bias) or mixed (int8, the layers below --target-sqnr int16)"),
      app.add_option("--target-sqnr", o.target_sqnr_db, "with --activations mixed: the SQNR in dB each layer should "
                                                        "reach; the layers of the int8 model below it stay int16"),
  app.add_option("--input-type", o.input_type, "the model's input type: the activations' (default, as converter-made "
                                               "models do), float32, int8, uint8 or int16 (a QUANTIZE in front)"),
  app.add_option("--output-type", o.output_type, "the output type: the activations' (default), float32 (a "
                                                 "DEQUANTIZE behind), int8, uint8 or int16 (a QUANTIZE behind)"),
  app.add_option("--method", o.method, "activation ranges: minmax, percentile, mse (default; measured best, docs/quantize.md)"),
      app.add_option("--bias-correction", o.bias_correction, "on (default) or off: subtract each weighted layer's "
                                                             "expected weight error (calibration means) from its bias"),
      app.add_option("--equalize", o.equalize, "on or off (default): cross-layer equalisation of depthwise "
                                               "-> conv pairs before calibration"),
      app.add_flag("--strict", o.strict, "refuse an operator without an int8 form instead of keeping it float32")};
  for (CLI::Option* option : added) {
    if (on_compile) option->needs("--quantize");
  }
}
const char* const kCalibrationHelp =
    "calibration samples: raw float32 .bin or .npy files, or folders of them (KEY.inputI.bin for models with several "
    "inputs)";
}  // namespace

void add_quantize_options(CLI::App& app, QuantizeCommandOptions& o) {
  app.add_option("model", o.model_path, "the float .tflite or .onnx model")->required();
  app.add_option("--calibration", o.calibration, kCalibrationHelp)->required();
  app.add_option("-o,--output", o.output, "the quantized .tflite to write; OUT.quant.txt and OUT.quant.json beside it")
      ->required();
  add_quantize_settings(app, o, false);
  app.add_option("--cc", o.cc, "host C compiler for the calibration runs (default $CC or cc)");
  app.add_option("--cflags", o.cflags, "extra C flags for the calibration runs");
  app.add_flag("--force", o.force, "replace output files microaot did not write, moving them aside first");
}

void add_compile_quantize_options(CLI::App& app, QuantizeCommandOptions& o, bool& enabled,
                                  std::vector<std::string>& calibration) {
  app.add_flag("--quantize", enabled, "quantize the float model first (as `microaot quantize`), then compile the "
                                      "result; the quantized .tflite and its report are written into the folder");
  app.add_option("--calibration", calibration,
                 std::string(kCalibrationHelp) + " (for an integer model also in its input type); with --quantize, or "
                 "with --cluster-weights: each layer's output error against the unclustered model, in "
                 "NAME_clustered.report.txt and .json");
  add_quantize_settings(app, o, true);
}

// The arena (MODEL_ARENA_SIZE) microaot's default compile gives a model.
long long arena_of(const std::vector<uint8_t>& tflite) {
  CompileCommandOptions c;
  c.model_path = "quantized.tflite";
  resolve_compile_options(c);
  return static_cast<long long>(arena_buffer_bytes(compile_model(tflite, c.compile)));
}

// --bias-correction: for each operator reading constant float weights (input 1), the mean of its float
// input's last dimension over every sample, keyed by the weights' tensor id (QuantizeSettings::input_means).
std::map<int, std::vector<float>> input_channel_means(const Graph& g, const std::vector<TensorValues>& runs) {
  std::map<int, std::vector<float>> means;
  for (const Op& op : g.ops) {
    if (op.inputs.size() < 2 || op.inputs[1] == kNoTensor || !g.tensor(op.inputs[1]).is_constant) continue;
    const Tensor& in = g.tensor(op.inputs[0]);
    const size_t channels = in.shape.empty() ? 1 : static_cast<size_t>(in.shape.back());
    std::vector<double> sum(channels, 0.0);
    size_t rows = 0;
    for (const TensorValues& run : runs) {
      const auto it = run.find(op.inputs[0]);
      if (it == run.end() || channels == 0) continue;
      for (size_t i = 0; i < it->second.size(); ++i) sum[i % channels] += it->second[i];
      rows += it->second.size() / channels;
    }
    if (rows == 0) continue;
    std::vector<float>& m = means[op.inputs[1]];
    for (double v : sum) m.push_back(static_cast<float>(v / static_cast<double>(rows)));
  }
  return means;
}

bool on_off(const std::string& value, const char* option) {
  if (value != "on" && value != "off") throw UsageError(std::string(option) + " '" + value + "' is not on or off");
  return value == "on";
}

// --activations mixed: the operators whose output missed the target in the all-int8 report.
std::set<int> below_target(const Graph& fg, const QuantReport& int8_report, QuantReport& report) {
  std::set<int> ops;
  for (const LayerError& l : int8_report.layers) {
    if (l.sqnr_db >= report.target_sqnr_db) continue;
    for (size_t i = 0; i < fg.ops.size(); ++i) {
      if (fg.ops[i].outputs[0] != l.tensor || !has_16x8_form(fg.ops[i])) continue;  // SVDF stays int8
      ops.insert(static_cast<int>(i));
      report.kept_int16.push_back("tensor " + std::to_string(l.tensor) + ", " + l.op);
    }
  }
  return ops;
}

QuantizedModel quantize_model(const QuantizeCommandOptions& o) {
  QuantizeSettings settings = settings_of(o);
  const RangeMethod method = parse_range_method(o.method);
  if (o.calibration.empty()) throw UsageError("quantizing needs --calibration samples");
  Graph float_graph = read_float_model(o.model_path);
  check_quantizable(float_graph, settings.strict);
  const int equalized = on_off(o.equalize, "--equalize") ? equalize_depthwise_pairs(float_graph) : 0;
  const bool bias_correction = on_off(o.bias_correction, "--bias-correction");
  const std::vector<CalibrationSample> samples = read_calibration(o.calibration, input_specs(float_graph));
  TempDir work;
  const HostRunSettings host{o.cc, o.cflags, {}, {}};
  const std::vector<TensorValues> float_runs =
      run_and_dump(write_tflite(float_graph), float_graph, samples, host, work.path() + "/float");
  const std::map<int, Range> ranges = measure_ranges(float_graph, float_runs, method, settings.activations);
  if (bias_correction) settings.input_means = input_channel_means(float_graph, float_runs);
  std::map<int, Range> int16_ranges;
  if (o.activations == "mixed") {
    int16_ranges = measure_ranges(float_graph, float_runs, method, DType::kInt16);
    settings.int16_ranges = &int16_ranges;
  }
  QuantReport report{o.model_path, o.output, range_method_name(method), o.weights, o.activations,
                     dtype_name(settings.input_type), dtype_name(settings.output_type), samples.size(),
                     o.target_sqnr_db, {}, 0, 0, {}, {}, {}, o.bias_correction, equalized};
  for (int index : float_ops(float_graph)) {
    const std::string op = describe_op(float_graph, float_graph.ops[static_cast<size_t>(index)]);
    report.kept_float.push_back(op);
    std::fprintf(stderr, "microaot: warning: %s has no int8 form in microaot quantize; kept float32 (its inputs "
                 "dequantized, its outputs quantized again); --strict refuses it\n", op.c_str());
  }
  // One pass, or for mixed two: all-int8, then with the layers that missed the target int16.
  std::vector<uint8_t> bytes;
  for (int pass = 0; pass < (o.activations == "mixed" ? 2 : 1); ++pass) {
    Graph quant = quantize_graph(float_graph, ranges, settings);
    quant.description = std::string(kDescription) + " " + MICROAOT_VERSION + " (" + o.activations + ", " +
                        range_method_name(method) + ", " + o.weights + ") of " +
                        fs::path(o.model_path).filename().string();
    bytes = write_tflite(quant);
    read_tflite(bytes);  // the schema verifier and microaot's own checks accept it
    const std::vector<TensorValues> quant_runs =
        run_and_dump(bytes, quant, samples, host, work.path() + "/q" + std::to_string(pass));
    RunComparison errors = compare_runs(float_graph, quant, float_runs, quant_runs);
    report.layers = std::move(errors.layers);
    report.outputs = std::move(errors.outputs);
    if (o.activations != "mixed") break;
    if (pass == 0) {
      report.arena_int8 = report.arena_mixed = arena_of(bytes);
      settings.int16_ops = below_target(float_graph, report, report);
      if (settings.int16_ops.empty()) break;
    } else {
      report.arena_mixed = arena_of(bytes);
    }
  }
  QuantizedModel out{bytes, report_text(report), report_json(report), ""};
  out.summary = "microaot: quantized " + o.model_path + " with " + std::to_string(samples.size()) +
                " calibration sample(s) (" + o.activations + ", " + report.method + ", " + o.weights + " weights)\n";
  if (o.activations == "mixed") {
    out.summary += "microaot: " + std::to_string(report.kept_int16.size()) + " layer(s) kept int16; arena " +
                   std::to_string(report.arena_int8) + " -> " + std::to_string(report.arena_mixed) + " bytes\n";
  }
  for (const OutputError& e : report.outputs) out.summary += "microaot: " + output_summary(e) + "\n";
  return out;
}

int quantize_command(const QuantizeCommandOptions& o) {
  settings_of(o);
  parse_range_method(o.method);
  const std::string base = report_base(o.output);
  refuse_input_as_output({o.output, base + ".quant.txt", base + ".quant.json"}, o.model_path);
  const QuantizedModel q = quantize_model(o);
  write_outputs({{o.output, std::string(q.tflite.begin(), q.tflite.end()), our_model},
                 {base + ".quant.txt", q.report_text, our_text_report},
                 {base + ".quant.json", q.report_json, our_json_report}},
                o);
  std::printf("%s", q.summary.c_str());
  std::printf("microaot: wrote %s; report %s.quant.txt\n", o.output.c_str(), base.c_str());
  return 0;
}

// compile --quantize: the quantized model compiled as `compile` compiles a file, with NAME_int8.tflite (or
// _int16), NAME_int8.quant.txt and .json added to the folder (one model, a folder output).
int compile_quantized_command(CompileCommandOptions& options, const CompileOutputOptions& output,
                              QuantizeCommandOptions q) {
  if (!options.more_model_paths.empty() || output.format != "dir" || output.blob_only) {
    throw UsageError("--quantize compiles one model into a folder (no further models, --output-format or --blob-only)");
  }
  q.model_path = options.model_path;
  q.calibration = options.calibration;
  const std::string name = fs::path(q.model_path).stem().string() + "_" + q.activations;
  q.output = name + ".tflite";
  const QuantizedModel model = quantize_model(q);
  std::printf("%s", model.summary.c_str());
  const FileSet extra = {{q.output, std::string(model.tflite.begin(), model.tflite.end())},
                         {name + ".quant.txt", model.report_text},
                         {name + ".quant.json", model.report_json}};
  return compile_model_bytes(options, output, model.tflite, extra);
}

}  // namespace microaot
