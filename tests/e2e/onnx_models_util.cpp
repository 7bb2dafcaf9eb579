#include "onnx_models_util.h"

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "e2e_util.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

const char* const kTwins[] = {"hello_world_f32", "ad_autoencoder_f32"};  // ../shared/models/NAME, float FC

// Debian's python3-onnx is on /usr/bin/python3's path, not necessarily on another python3 first in PATH.
constexpr const char* kPython = "/usr/bin/python3";

std::string oracle_dir() { return MICROAOT_ONNX_ORACLE_DIR; }

std::string missing_tool() {
  if (run_process({kPython, "-c", "import onnx, numpy"}, "/dev/null", "/dev/null") != 0) {
    return "python3-onnx or python3-numpy is not installed";
  }
  if (run_process({"node", "--version"}, "/dev/null", "/dev/null") != 0) return "node is not installed";
  if (!fs::exists(oracle_dir() + "/node_modules/onnxruntime-node/package.json")) {
    return "onnxruntime-node is not installed in tests/onnx";
  }
  return "";
}

// Runs argv; "" on success, else what failed with its stderr.
std::string run_step(const std::vector<std::string>& argv, const std::string& log) {
  if (run_process(argv, log, "/dev/null") == 0) return "";
  return argv[1] + " failed:\n" + read_text(log);
}

std::string make_models(const std::string& dir) {
  std::vector<std::string> argv = {kPython, oracle_dir() + "/make_models.py", dir};
  if (shared_available()) {
    argv.insert(argv.end(), {"--schema", MICROAOT_TFLITE_SCHEMA});
    for (const char* twin : kTwins) {
      const std::string model = shared_dir() + "/models/" + twin;
      argv.insert(argv.end(), {"--twin", std::string(twin) + "=" + model + "/model.tflite," + model +
                                             "/vectors/0.input0.bin"});
    }
  }
  std::string error = run_step(argv, dir + "/make_models.log");
  std::ifstream list(dir + "/models.txt");
  std::string name, shape;
  while (error.empty() && list >> name >> shape) {
    error = run_step({"node", oracle_dir() + "/ort_run.js", dir + "/" + name + ".onnx", dir + "/" + name + ".ort",
                      dir + "/" + name + ".input0.bin"},
                     dir + "/ort_run.log");
  }
  return error;
}

// The folder of the models made from this generator, oracle and ../shared: the test processes of a build
// share it (each test runs in its own process), and a change to any of them makes a new one.
std::string cache_dir() {
  std::string key = read_text(oracle_dir() + "/make_models.py") + read_text(oracle_dir() + "/ort_run.js") +
                    read_text(oracle_dir() + "/package-lock.json") + (shared_available() ? "shared" : "");
  return std::string(MICROAOT_ONNX_MODELS_CACHE) + "/" + std::to_string(std::hash<std::string>{}(key));
}

void read_shapes(const std::string& dir, std::map<std::string, std::vector<int64_t>>& input_shape) {
  std::ifstream list(dir + "/models.txt");
  std::string name, shape;
  while (list >> name >> shape) {
    std::istringstream dims(shape);
    std::vector<int64_t>& out = input_shape[name];
    for (std::string d; std::getline(dims, d, 'x');) out.push_back(std::stoll(d));
  }
}

struct Holder {
  OnnxModels models;
  Holder() {
    models.unavailable = missing_tool();
    if (!models.unavailable.empty()) return;
    models.dir = cache_dir();
    if (!fs::exists(models.dir + "/complete")) {  // made in a folder of its own, then renamed: all or nothing
      fs::create_directories(MICROAOT_ONNX_MODELS_CACHE);
      std::string work = std::string(MICROAOT_ONNX_MODELS_CACHE) + "/making-XXXXXX";  // beside it: rename works
      if (mkdtemp(work.data()) == nullptr) std::abort();
      models.error = make_models(work);
      std::ofstream(work + "/complete") << "";
      std::error_code ec;
      if (!models.error.empty() || (fs::rename(work, models.dir, ec), ec)) remove_dir(work);  // lost a race: theirs
    }
    read_shapes(models.dir, models.input_shape);
  }
};

}  // namespace

const std::vector<std::string>& onnx_real_model_names() {
  static const std::vector<std::string> names = {"cnn_f32",         "ds_cnn_f32",     "mlp_autoencoder_f32",
                                                 "gru_unrolled_f32", "unet_f32",        "hello_world_f32",
                                                 "ad_autoencoder_f32", "lstm_f32",      "bilstm_f32",
                                                 "gru_f32"};
  return names;
}

bool is_tflite_twin(const std::string& name) {
  for (const char* twin : kTwins) {
    if (name == twin) return true;
  }
  return false;
}

std::string tflite_twin_path(const std::string& name) { return shared_dir() + "/models/" + name + "/model.tflite"; }

const OnnxModels& onnx_real_models() {
  static const Holder holder;
  return holder.models;
}

double max_abs_difference(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  if (got.size() != want.size() || got.size() % sizeof(float) != 0) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (size_t i = 0; i < got.size(); i += sizeof(float)) {
    float a, b;
    std::memcpy(&a, &got[i], sizeof a);
    std::memcpy(&b, &want[i], sizeof b);
    const double d = std::fabs(static_cast<double>(a) - b);
    worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(worst, d);
  }
  return worst;
}

}  // namespace microaot::e2e
