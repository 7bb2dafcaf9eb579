// `microaot quantize`: a float model and calibration samples in, an int8 .tflite and its error report out.
// The float graph (quantize/float_model.h) is written as a .tflite, compiled and run on the host with every
// tensor kept (`run --dump-tensors`, one build for all samples) to measure each activation's range; the
// int8 graph is then written, run the same way on the same samples, and compared layer by layer.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "driver/commands.h"
#include "driver/output_dir.h"
#include "frontend/tflite_reader.h"
#include "quantize/calibration_data.h"
#include "quantize/float_model.h"
#include "quantize/quant_report.h"
#include "quantize/quantize_graph.h"
#include "quantize/tflite_writer.h"
#include "support/diagnostics.h"
#include "support/version.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
constexpr const char* kDescription = "microaot quantize";

using TensorValues = std::map<int, std::vector<float>>;  // tensor id -> float values of one sample

std::vector<float> as_floats(const Tensor& t, const std::vector<uint8_t>& bytes) {
  std::vector<float> out;
  if (t.dtype == DType::kFloat32) {
    out.resize(bytes.size() / sizeof(float));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  } else if (t.dtype == DType::kInt8 && !t.quant.empty()) {
    const AffineParams p{t.quant.scale[0], static_cast<int32_t>(t.quant.zero_point[0])};
    for (uint8_t b : bytes) out.push_back(dequantize_int8(static_cast<int8_t>(b), p));
  }
  return out;
}

void write_bytes(const std::string& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) throw CompileError("cannot write temporary file '" + path + "'");
}

// The model input files of each sample, in the model's input types (int8 inputs quantized).
std::vector<std::string> write_inputs(const Graph& g, const std::vector<CalibrationSample>& samples,
                                      const std::string& dir) {
  std::vector<std::string> files;
  fs::create_directories(dir);
  for (size_t k = 0; k < samples.size(); ++k) {
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      const Tensor& t = g.tensor(g.inputs[i]);
      const std::vector<float>& v = samples[k].inputs[i];
      const std::string path = dir + "/" + std::to_string(k) + ".input" + std::to_string(i) + ".bin";
      if (t.dtype == DType::kFloat32) {
        write_bytes(path, v.data(), v.size() * sizeof(float));
      } else {
        const AffineParams p{t.quant.scale[0], static_cast<int32_t>(t.quant.zero_point[0])};
        std::vector<int8_t> q;
        for (float x : v) q.push_back(quantize_int8(x, p));
        write_bytes(path, q.data(), q.size());
      }
      files.push_back(path);
    }
  }
  return files;
}

// Runs graph `g` on every sample with every intermediate kept; per sample, every tensor's values as floats
// (int8 ones dequantized). One host build serves all samples (`run --batch --fresh-state`).
std::vector<TensorValues> run_and_dump(const Graph& g, const std::vector<CalibrationSample>& samples,
                                       const QuantizeCommandOptions& o, const std::string& dir) {
  fs::create_directories(dir);
  const std::vector<uint8_t> bytes = write_tflite(g);
  RunCommandOptions run;
  run.base.model_path = dir + "/model.tflite";
  write_bytes(run.base.model_path, bytes.data(), bytes.size());
  run.inputs = write_inputs(g, samples, dir + "/inputs");
  run.output_dir = dir + "/outputs";
  run.dump_tensors_dir = dir + "/tensors";
  run.batch = run.fresh_state = run.quiet = true;
  run.cc = o.cc;
  run.cflags = o.cflags;
  run_command(run);
  std::vector<TensorValues> values(samples.size());
  for (size_t k = 0; k < samples.size(); ++k) {
    const std::string sub = "/" + std::to_string(k);
    for (const auto& entry : fs::directory_iterator(run.dump_tensors_dir + sub)) {
      const std::string name = entry.path().stem().string();  // tN
      if (name.size() < 2 || name[0] != 't') continue;
      const int id = std::stoi(name.substr(1));
      if (id >= 0 && id < static_cast<int>(g.tensors.size())) {
        values[k][id] = as_floats(g.tensor(id), read_binary_file(entry.path().string()));
      }
    }
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      values[k][g.inputs[i]] = as_floats(g.tensor(g.inputs[i]), read_binary_file(run.inputs[k * g.inputs.size() + i]));
    }
    for (size_t j = 0; j < g.outputs.size(); ++j) {
      const std::string path = run.output_dir + sub + "/output" + std::to_string(j) + ".bin";
      values[k][g.outputs[j]] = as_floats(g.tensor(g.outputs[j]), read_binary_file(path));
    }
  }
  return values;
}

std::map<int, Range> measure_ranges(const Graph& g, const std::vector<TensorValues>& runs, RangeMethod method) {
  std::map<int, Range> ranges;
  for (int id : calibrated_tensors(g)) {
    std::vector<float> all;
    for (size_t k = 0; k < runs.size(); ++k) {
      const auto it = runs[k].find(id);
      if (it == runs[k].end()) continue;
      if (!std::all_of(it->second.begin(), it->second.end(), [](float v) { return std::isfinite(v); })) {
        throw CompileError("calibration sample " + std::to_string(k) + " makes " + describe_tensor(g, id) +
                           " infinite or NaN in the float model; no int8 range fits it");
      }
      all.insert(all.end(), it->second.begin(), it->second.end());
    }
    if (!all.empty()) ranges[id] = estimate_range(std::move(all), method);
  }
  return ranges;
}

// Per sample values of tensor `id`; empty when a run kept no copy of it.
std::vector<std::vector<float>> per_sample(const std::vector<TensorValues>& runs, int id) {
  std::vector<std::vector<float>> out;
  for (const TensorValues& run : runs) {
    const auto it = run.find(id);
    if (it == run.end()) return {};
    out.push_back(it->second);
  }
  return out;
}

std::vector<float> flat(const std::vector<std::vector<float>>& v) {
  std::vector<float> out;
  for (const auto& s : v) out.insert(out.end(), s.begin(), s.end());
  return out;
}

void fill_errors(QuantReport& report, const Graph& fg, const Graph& qg, const std::vector<TensorValues>& f,
                 const std::vector<TensorValues>& q) {
  for (const Op& op : fg.ops) {
    const int id = op.outputs[0];
    const auto ref = per_sample(f, id), got = per_sample(q, id);
    if (ref.empty() || got.empty()) continue;
    const Tensor& t = qg.tensor(id);
    report.layers.push_back({id, fg.tensor(id).name, describe_op(fg, op), t.quant.scale.at(0),
                             static_cast<int>(t.quant.zero_point.at(0)), sqnr_db(flat(ref), flat(got))});
  }
  for (size_t j = 0; j < fg.outputs.size(); ++j) {
    const Tensor& t = fg.tensor(fg.outputs[j]);
    const auto ref = per_sample(f, fg.outputs[j]), got = per_sample(q, qg.outputs[j]);
    if (ref.empty() || got.empty()) throw CompileError("the run kept no copy of output " + std::to_string(j));
    OutputError e = compare_output(ref, got, t.shape.empty() ? 1 : t.shape.back());
    e.tensor = fg.outputs[j];
    e.name = t.name;
    report.outputs.push_back(e);
  }
}

QuantizeSettings settings_of(const QuantizeCommandOptions& o) {
  if (o.activations == "int16") {
    throw UsageError("--activations int16 (16x8) is not implemented yet; only int8 activations for now");
  }
  if (o.activations != "int8") throw UsageError("--activations '" + o.activations + "' is not int8 or int16");
  QuantizeSettings s;
  if (o.weights != "per-channel" && o.weights != "per-tensor") {
    throw UsageError("--weights '" + o.weights + "' is not per-channel or per-tensor");
  }
  s.per_channel = o.weights == "per-channel";
  for (const auto& [value, flag, name] : {std::tuple{o.input_type, &s.float_input, "--input-type"},
                                          std::tuple{o.output_type, &s.float_output, "--output-type"}}) {
    if (value == "uint8") throw UsageError(std::string(name) + " uint8 is not implemented yet; use int8 or float32");
    if (value != "int8" && value != "float32") {
      throw UsageError(std::string(name) + " '" + value + "' is not int8 or float32");
    }
    *flag = value == "float32";
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

std::vector<CalibrationInputSpec> input_specs(const Graph& g) {
  std::vector<CalibrationInputSpec> specs;
  for (int id : g.inputs) specs.push_back({g.tensor(id).name, g.tensor(id).shape});
  return specs;
}
}  // namespace

void add_quantize_options(CLI::App& app, QuantizeCommandOptions& o) {
  app.add_option("model", o.model_path, "the float .tflite model")->required();
  app.add_option("--calibration", o.calibration,
                 "calibration samples: raw float32 .bin or .npy files, or folders of them (KEY.inputI.bin for "
                 "models with several inputs)")
      ->required();
  app.add_option("-o,--output", o.output, "the int8 .tflite to write; OUT.quant.txt and OUT.quant.json beside it")
      ->required();
  app.add_option("--weights", o.weights, "per-channel (default; along the output channels) or per-tensor");
  app.add_option("--activations", o.activations, "int8 (default); int16 is not implemented yet");
  app.add_option("--input-type", o.input_type, "int8 (default: the model takes int8, as converter-made models "
                                               "do) or float32 (a QUANTIZE in front)");
  app.add_option("--output-type", o.output_type, "int8 (default) or float32 (a DEQUANTIZE behind)");
  app.add_option("--method", o.method, "activation ranges: minmax, percentile, mse (default; measured best, docs/quantize.md)");
  app.add_option("--cc", o.cc, "host C compiler for the calibration runs (default $CC or cc)");
  app.add_option("--cflags", o.cflags, "extra C flags for the calibration runs");
  app.add_flag("--force", o.force, "replace output files microaot did not write, moving them aside first");
}

int quantize_command(const QuantizeCommandOptions& o) {
  const QuantizeSettings settings = settings_of(o);
  const RangeMethod method = parse_range_method(o.method);
  const std::string base = report_base(o.output);
  refuse_input_as_output({o.output, base + ".quant.txt", base + ".quant.json"}, o.model_path);
  Graph float_graph = read_float_model(o.model_path);
  check_quantizable(float_graph);
  const std::vector<CalibrationSample> samples = read_calibration(o.calibration, input_specs(float_graph));
  TempDir work;
  const std::vector<TensorValues> float_runs = run_and_dump(float_graph, samples, o, work.path() + "/float");
  Graph quant = quantize_graph(float_graph, measure_ranges(float_graph, float_runs, method), settings);
  quant.description = std::string(kDescription) + " " + MICROAOT_VERSION + " (" + range_method_name(method) +
                      ", " + o.weights + ") of " + fs::path(o.model_path).filename().string();
  const std::vector<uint8_t> bytes = write_tflite(quant);
  read_tflite(bytes);  // the schema verifier and microaot's own checks accept it
  const std::vector<TensorValues> quant_runs = run_and_dump(quant, samples, o, work.path() + "/int8");
  QuantReport report{o.model_path, o.output, range_method_name(method), o.weights, o.input_type, o.output_type,
                     samples.size(), {}, {}};
  fill_errors(report, float_graph, quant, float_runs, quant_runs);
  write_outputs({{o.output, std::string(bytes.begin(), bytes.end()), our_model},
                 {base + ".quant.txt", report_text(report), our_text_report},
                 {base + ".quant.json", report_json(report), our_json_report}},
                o);
  std::printf("microaot: quantized %s with %zu calibration sample(s) (%s, %s weights) -> %s; report %s.quant.txt\n",
              o.model_path.c_str(), samples.size(), report.method.c_str(), o.weights.c_str(), o.output.c_str(),
              base.c_str());
  for (const OutputError& e : report.outputs) {
    std::printf("microaot: output '%s': SQNR %.2f dB, largest error %.6g%s\n", e.name.c_str(), e.sqnr_db,
                e.max_abs_error,
                e.rows > 0 ? (", top-1 agreement " + std::to_string(e.top1_agree) + "/" + std::to_string(e.rows)).c_str()
                           : "");
  }
  return 0;
}

}  // namespace microaot
