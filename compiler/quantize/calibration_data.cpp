#include "quantize/calibration_data.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {

int64_t CalibrationInputSpec::elements() const {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

namespace {
bool has_extension(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".bin" || ext == ".npy";
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw CompileError("cannot read calibration file '" + path + "'");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::string describe_input(const CalibrationInputSpec& spec, size_t index) {
  std::string shape;
  for (int32_t d : spec.shape) shape += (shape.empty() ? "" : ",") + std::to_string(d);
  return "input " + std::to_string(index) + " '" + spec.name + "' [" + shape + "] " + dtype_name(spec.type);
}

bool reads_own_encoding(const CalibrationInputSpec& spec) { return spec.type != DType::kFloat32 && spec.scale > 0.0f; }

// An integer input's own bytes (int8, uint8 or little-endian int16), dequantized.
std::vector<float> dequantized(const std::vector<uint8_t>& bytes, const CalibrationInputSpec& spec) {
  std::vector<float> values(static_cast<size_t>(spec.elements()));
  for (size_t i = 0; i < values.size(); ++i) {
    int32_t q = bytes[i];
    if (spec.type == DType::kInt8) q = static_cast<int8_t>(bytes[i]);
    if (spec.type == DType::kInt16) q = static_cast<int16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8);
    values[i] = static_cast<float>(q - spec.zero_point) * spec.scale;
  }
  return values;
}

std::vector<float> read_values(const std::string& path, const CalibrationInputSpec& spec, size_t index) {
  const std::vector<uint8_t> bytes = read_bytes(path);
  if (fs::path(path).extension() == ".npy") return parse_npy_float32(bytes, path, spec.elements());
  const uint64_t expected = static_cast<uint64_t>(spec.elements()) * sizeof(float);
  const uint64_t own = static_cast<uint64_t>(spec.elements()) * dtype_size(spec.type);
  if (reads_own_encoding(spec) && bytes.size() == own) return dequantized(bytes, spec);
  if (bytes.size() != expected) {
    throw CompileError("calibration file '" + path + "' has " + std::to_string(bytes.size()) + " bytes; " +
                       describe_input(spec, index) + " needs " + std::to_string(expected) +
                       " (raw little-endian float32, no header)" +
                       (reads_own_encoding(spec) ? " or " + std::to_string(own) + " (its own type)" : ""));
  }
  std::vector<float> values(static_cast<size_t>(spec.elements()));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// The files a path stands for: itself, or a folder's .bin/.npy files, sorted; in a folder with KEY.inputI
// files only those.
std::vector<std::string> expand(const std::string& path, const std::regex& input_name) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    if (!has_extension(path)) throw CompileError("calibration file '" + path + "' is neither .bin nor .npy");
    return {path};
  }
  if (!fs::is_directory(path, ec)) throw CompileError("calibration path '" + path + "' does not exist");
  std::vector<std::string> files, named;
  for (const auto& entry : fs::directory_iterator(path)) {
    const std::string p = entry.path().string();
    if (!entry.is_regular_file() || !has_extension(p)) continue;
    files.push_back(p);
    if (std::regex_match(entry.path().filename().string(), input_name)) named.push_back(p);
  }
  std::vector<std::string>& chosen = named.empty() ? files : named;
  std::sort(chosen.begin(), chosen.end());
  if (chosen.empty()) throw CompileError("calibration folder '" + path + "' holds no .bin or .npy file");
  return chosen;
}
}  // namespace

std::vector<float> parse_npy_float32(const std::vector<uint8_t>& bytes, const std::string& path, int64_t elements) {
  const std::string where = "calibration file '" + path + "'";
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
    throw CompileError(where + " is not a .npy file (no \\x93NUMPY magic)");
  }
  const int major = bytes[6];
  const size_t length_bytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3 || bytes.size() < 8 + length_bytes) {
    throw CompileError(where + ": unknown .npy version " + std::to_string(major));
  }
  size_t header_length = 0;
  for (size_t i = 0; i < length_bytes; ++i) header_length |= static_cast<size_t>(bytes[8 + i]) << (8 * i);
  const size_t data_at = 8 + length_bytes + header_length;
  if (data_at > bytes.size()) throw CompileError(where + ": the .npy header runs past the end of the file");
  const std::string header(bytes.begin() + 8 + static_cast<std::ptrdiff_t>(length_bytes),
                           bytes.begin() + static_cast<std::ptrdiff_t>(data_at));
  std::smatch descr;
  if (!std::regex_search(header, descr, std::regex("'descr':\\s*'([^']*)'"))) {
    throw CompileError(where + ": the .npy header has no 'descr'");
  }
  if (descr[1] != "<f4") {
    throw CompileError(where + " holds dtype '" + descr[1].str() + "'; calibration needs float32 ('<f4')");
  }
  if (std::regex_search(header, std::regex("'fortran_order':\\s*True"))) {
    throw CompileError(where + " is in Fortran order; save it in C order (numpy.ascontiguousarray)");
  }
  const uint64_t expected = static_cast<uint64_t>(elements) * sizeof(float);
  if (bytes.size() - data_at != expected) {
    throw CompileError(where + " holds " + std::to_string((bytes.size() - data_at) / sizeof(float)) +
                       " float32 values; the model input needs " + std::to_string(elements));
  }
  std::vector<float> values(static_cast<size_t>(elements));
  std::memcpy(values.data(), bytes.data() + data_at, expected);
  return values;
}

std::vector<CalibrationSample> read_calibration(const std::vector<std::string>& paths,
                                                const std::vector<CalibrationInputSpec>& inputs) {
  const std::regex input_name("(.*)\\.input([0-9]+)\\.(bin|npy)");
  std::map<std::string, std::map<size_t, std::string>> by_key;  // key -> input index -> file
  for (const std::string& path : paths) {
    for (const std::string& file : expand(path, input_name)) {
      std::smatch m;
      const bool named = std::regex_match(file, m, input_name);
      if (!named && inputs.size() != 1) {
        throw CompileError("calibration file '" + file + "': the model has " + std::to_string(inputs.size()) +
                           " inputs; name each sample's files KEY.input0.bin ... KEY.input" +
                           std::to_string(inputs.size() - 1) + ".bin");
      }
      const size_t index = named ? std::stoul(m[2].str()) : 0;
      if (index >= inputs.size()) {
        throw CompileError("calibration file '" + file + "' is for input " + std::to_string(index) +
                           "; the model has " + std::to_string(inputs.size()));
      }
      by_key[named ? m[1].str() : file][index] = file;
    }
  }
  std::vector<CalibrationSample> samples;
  for (const auto& [key, files] : by_key) {
    CalibrationSample sample{key, {}};
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto it = files.find(i);
      if (it == files.end()) {
        throw CompileError("calibration sample '" + key + "' has no file for input " + std::to_string(i) +
                           " (expected " + key + ".input" + std::to_string(i) + ".bin or .npy)");
      }
      sample.inputs.push_back(read_values(it->second, inputs[i], i));
    }
    samples.push_back(std::move(sample));
  }
  if (samples.empty()) throw CompileError("no calibration sample given");
  return samples;
}

}  // namespace microaot
