#include "driver/model_runs.h"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "driver/commands.h"
#include "ir/tensor_compare.h"
#include "quantize/quant_params.h"
#include "quantize/quantize_graph.h"
#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
AffineParams params_of(const Tensor& t) { return {t.quant.scale.at(0), static_cast<int32_t>(t.quant.zero_point.at(0))}; }

bool quantized_integer(const Tensor& t) {
  return (t.dtype == DType::kInt8 || t.dtype == DType::kUInt8 || t.dtype == DType::kInt16) && !t.quant.empty();
}

// One element of an int8, uint8 or int16 tensor's bytes.
int32_t integer_at(DType type, const std::vector<uint8_t>& bytes, size_t i) {
  if (type == DType::kInt8) return static_cast<int8_t>(bytes[i]);
  if (type == DType::kUInt8) return bytes[i];
  int16_t v;
  std::memcpy(&v, bytes.data() + 2 * i, sizeof v);
  return v;
}

std::vector<float> as_floats(const Tensor& t, const std::vector<uint8_t>& bytes) {
  std::vector<float> out;
  if (t.dtype == DType::kFloat32) {
    out.resize(bytes.size() / sizeof(float));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  } else if (quantized_integer(t)) {
    const AffineParams p = params_of(t);
    for (size_t i = 0; i < bytes.size() / dtype_size(t.dtype); ++i) {
      out.push_back(dequantize_value(integer_at(t.dtype, bytes, i), p));
    }
  }
  return out;
}

void write_bytes(const std::string& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) throw CompileError("cannot write temporary file '" + path + "'");
}

// The model input files of each sample, in the model's input types (integer inputs quantized).
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
        std::vector<uint8_t> q(v.size() * dtype_size(t.dtype));
        for (size_t e = 0; e < v.size(); ++e) {
          const int32_t x = quantize_value(v[e], params_of(t), t.dtype);
          if (t.dtype == DType::kInt16) {
            const int16_t narrow = static_cast<int16_t>(x);
            std::memcpy(q.data() + 2 * e, &narrow, sizeof narrow);
          } else {
            q[e] = static_cast<uint8_t>(x);  // int8's two's complement or uint8
          }
        }
        write_bytes(path, q.data(), q.size());
      }
      files.push_back(path);
    }
  }
  return files;
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
}  // namespace

std::vector<CalibrationInputSpec> input_specs(const Graph& g) {
  std::vector<CalibrationInputSpec> specs;
  for (int id : g.inputs) {
    const Tensor& t = g.tensor(id);
    CalibrationInputSpec spec{t.name, t.shape};
    if (quantized_integer(t)) {
      spec.type = t.dtype;
      spec.scale = t.quant.scale.at(0);
      spec.zero_point = static_cast<int32_t>(t.quant.zero_point.at(0));
    }
    specs.push_back(spec);
  }
  return specs;
}

std::vector<TensorValues> run_and_dump(const std::vector<uint8_t>& bytes, const Graph& g,
                                       const std::vector<CalibrationSample>& samples, const HostRunSettings& host,
                                       const std::string& dir) {
  fs::create_directories(dir);
  RunCommandOptions run;
  run.base.model_path = dir + "/model.tflite";
  run.base.custom_ops = host.custom_ops;
  run.base.custom_sources = host.custom_sources;
  write_bytes(run.base.model_path, bytes.data(), bytes.size());
  run.inputs = write_inputs(g, samples, dir + "/inputs");
  run.output_dir = dir + "/outputs";
  run.dump_tensors_dir = dir + "/tensors";
  run.batch = run.quiet = true;
  run.fresh_state = !has_state(g);
  run.cc = host.cc;
  run.cflags = host.cflags;
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

RunComparison compare_runs(const Graph& ref_graph, const Graph& got_graph, const std::vector<TensorValues>& ref,
                           const std::vector<TensorValues>& got) {
  RunComparison c;
  for (const Op& op : ref_graph.ops) {
    const int id = op.outputs[0];
    const auto r = per_sample(ref, id), g = per_sample(got, id);
    if (r.empty() || g.empty()) continue;
    const Tensor& t = got_graph.tensor(id);
    const bool kept_float = t.quant.empty();
    c.layers.push_back({id, ref_graph.tensor(id).name, describe_op(ref_graph, op), dtype_name(t.dtype),
                        kept_float ? 0.0f : t.quant.scale.at(0),
                        kept_float ? 0 : static_cast<int>(t.quant.zero_point.at(0)), sqnr_db(flat(r), flat(g))});
  }
  for (size_t j = 0; j < ref_graph.outputs.size(); ++j) {
    const Tensor& t = ref_graph.tensor(ref_graph.outputs[j]);
    const auto r = per_sample(ref, ref_graph.outputs[j]), g = per_sample(got, got_graph.outputs[j]);
    if (r.empty() || g.empty()) throw CompileError("the run kept no copy of output " + std::to_string(j));
    OutputError e = compare_output(r, g, t.shape.empty() ? 1 : t.shape.back());
    e.tensor = ref_graph.outputs[j];
    e.name = t.name;
    c.outputs.push_back(e);
  }
  return c;
}

}  // namespace microaot
