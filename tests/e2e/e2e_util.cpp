#include "e2e_util.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "frontend/tflite_test_builder.h"
#include "ir/tensor_compare.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {

std::string shared_dir() { return MICROAOT_SHARED_DIR; }
bool shared_available() { return fs::is_directory(shared_dir() + "/models"); }
bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0';
}

namespace {
std::vector<std::string> model_names(const std::string& collection) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(shared_dir() + "/" + collection, ec)) {
    if (fs::exists(entry.path() / "golden.json")) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) names.push_back(kNoSharedModels);
  return names;
}
}  // namespace

std::vector<std::string> shared_model_names() { return model_names("models"); }
std::vector<std::string> recurrent_model_names() { return model_names("models-recurrent"); }

std::string unsupported_operators(const std::string& model_path) {
  const std::string out = make_temp_dir();
  std::string errors;
  run_microaot_capture({"compile", model_path, "-o", out + "/lib"}, errors);
  remove_dir(out);
  return errors.find("unsupported operators:") != std::string::npos ? errors : "";
}

std::string runtime_lib() { return MICROAOT_RUNTIME_LIB; }

bool arm_tools_available() {
  static const bool ok = run_process({"arm-none-eabi-gcc", "--version"}, "/dev/null", "/dev/null") == 0 &&
                         run_process({"qemu-system-arm", "--version"}, "/dev/null", "/dev/null") == 0;
  return ok;
}

int run_microaot(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {MICROAOT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

int run_microaot_capture(const std::vector<std::string>& args, std::string& errors, std::string* output) {
  const std::string dir = make_temp_dir();
  const std::string log = dir + "/stderr.txt";
  const std::string out = dir + "/stdout.txt";
  std::vector<std::string> argv = {MICROAOT_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  const int status = run_process(argv, log, output != nullptr ? out : "");
  const std::vector<uint8_t> bytes = read_file(log);
  errors.assign(bytes.begin(), bytes.end());
  if (output != nullptr) {
    const std::vector<uint8_t> text = read_file(out);
    output->assign(text.begin(), text.end());
  }
  remove_dir(dir);
  return status;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string read_text(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return {bytes.begin(), bytes.end()};
}

std::string make_program(const std::string& dir, const std::string& makefile_head, const std::string& target,
                         const std::string& objects) {
  std::ofstream(dir + "/Makefile") << makefile_head << target << ": $(patsubst %.c,%.o," << objects
                                   << ")\n\t$(CC) -o $@ $^ -lm\n";
  const int status = run_process({"make", "-C", dir, target}, dir + "/make.log", dir + "/make.out");
  return status == 0 ? "" : "make failed:\n" + read_text(dir + "/make.log");
}

std::string write_unsupported_op_model(const std::string& dir) {
  tflite_test::ModelSpec spec;
  spec.tensors = {tflite_test::activation("in", {1, 4}, 0.5f, 0), tflite_test::activation("out", {1, 4}, 0.5f, 0)};
  spec.ops = {tflite_test::op(15, 1, {0}, {1})};
  spec.inputs = {0};
  spec.outputs = {1};
  const std::vector<uint8_t> bytes = tflite_test::build_model(spec);
  const std::string path = dir + "/unsupported.tflite";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  return path;
}

std::string make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "microaot-e2e-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) std::abort();
  return pattern;
}

void remove_dir(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string compare_tensor(const std::string& dtype, const std::vector<uint8_t>& got,
                           const std::vector<uint8_t>& want) {
  return describe_difference(compare_tensor_data(dtype_from_name(dtype), got, want));
}

}  // namespace microaot::e2e
