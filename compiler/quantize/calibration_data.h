// Calibration samples for `microaot quantize` (and `compile --cluster-weights`): raw .bin files in the input's
// float32 layout (little-endian, row-major, no header) or .npy files (float32, C order), given as files or
// folders of them; for a quantized integer input also raw .bin files in the input's own type (as `run --input`
// and ../shared/models/*_int8/vectors/ hold them), dequantized. A file named KEY.inputI.bin (or .npy) is input I of sample KEY; a model with
// one input takes any other file as one sample. In a folder that has KEY.inputI files, the others (outputs,
// notes) are left out. Anything that does not fit is refused, naming the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace microaot {

struct CalibrationInputSpec {
  std::string name;
  std::vector<int32_t> shape;
  DType type = DType::kFloat32;  // an integer type with a scale: its own encoding is read too
  float scale = 0.0f;
  int32_t zero_point = 0;
  int64_t elements() const;
};

struct CalibrationSample {
  std::string key;                         // the file (one input) or the KEY of KEY.inputI files
  std::vector<std::vector<float>> inputs;  // one per model input
};

// Reads every sample that `paths` name, in a stable order (sorted by key). Throws CompileError naming the
// file for a missing file, an unknown extension, a wrong size, a .npy of another dtype or order, an input
// missing from a sample, and when there is no sample at all.
std::vector<CalibrationSample> read_calibration(const std::vector<std::string>& paths,
                                                const std::vector<CalibrationInputSpec>& inputs);

// The float32 values of a .npy file's bytes; throws CompileError naming `path` unless it is a version 1-3
// .npy of little-endian float32 in C order holding exactly `elements` values.
std::vector<float> parse_npy_float32(const std::vector<uint8_t>& bytes, const std::string& path, int64_t elements);

}  // namespace microaot
