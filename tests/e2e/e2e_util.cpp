#include "e2e_util.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {

std::string shared_dir() { return MICROAOT_SHARED_DIR; }
bool shared_available() { return fs::is_directory(shared_dir() + "/models"); }
bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0';
}

std::vector<std::string> shared_model_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(shared_dir() + "/models", ec)) {
    if (fs::exists(entry.path() / "golden.json")) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  if (names.empty()) names.push_back(kNoSharedModels);
  return names;
}

std::string runtime_lib() { return MICROAOT_RUNTIME_LIB; }

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

std::string make_temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "microaot-e2e-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) std::abort();
  return pattern;
}

void remove_dir(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

namespace {
template <typename T>
std::vector<T> as(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// |got - ref| <= 1e-4 * |ref| + 1e-5 * max(1, max|ref|): the models README's float tolerance.
std::string compare_float(const std::vector<uint8_t>& got_bytes, const std::vector<uint8_t>& want_bytes) {
  const auto got = as<float>(got_bytes);
  const auto want = as<float>(want_bytes);
  float max_ref = 1.0f;
  for (float v : want) max_ref = std::max(max_ref, std::fabs(v));
  size_t bad = 0;
  std::ostringstream first;
  for (size_t i = 0; i < want.size(); ++i) {
    const double tolerance = 1e-4 * std::fabs(want[i]) + 1e-5 * max_ref;
    if (!(std::fabs(static_cast<double>(got[i]) - want[i]) <= tolerance)) {
      if (bad++ == 0) first << "element " << i << ": got " << got[i] << ", want " << want[i];
    }
  }
  return bad == 0 ? "" : first.str() + " (" + std::to_string(bad) + " of " + std::to_string(want.size()) + " differ)";
}

template <typename T>
std::string compare_exact(const std::vector<uint8_t>& got_bytes, const std::vector<uint8_t>& want_bytes) {
  const auto got = as<T>(got_bytes);
  const auto want = as<T>(want_bytes);
  size_t bad = 0;
  std::ostringstream first;
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i] && bad++ == 0) {
      first << "element " << i << ": got " << static_cast<int64_t>(got[i]) << ", want " << static_cast<int64_t>(want[i]);
    }
  }
  return bad == 0 ? "" : first.str() + " (" + std::to_string(bad) + " of " + std::to_string(want.size()) + " differ)";
}
}  // namespace

std::string compare_tensor(const std::string& dtype, const std::vector<uint8_t>& got,
                           const std::vector<uint8_t>& want) {
  if (got.size() != want.size()) {
    return "size " + std::to_string(got.size()) + " bytes, want " + std::to_string(want.size());
  }
  if (dtype == "float32") return compare_float(got, want);
  if (dtype == "int8") return compare_exact<int8_t>(got, want);
  if (dtype == "int16") return compare_exact<int16_t>(got, want);
  if (dtype == "int32") return compare_exact<int32_t>(got, want);
  return got == want ? "" : "bytes differ";
}

}  // namespace microaot::e2e
