// Test helper: the shared reference data in ../shared (real models, recurrent models, the single-operator
// suite with its index.json and goldens). A developer machine may lack it and the tests then skip; CI must
// have it, so there its absence is a failure.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace microaot {
namespace shared_data {

namespace fs = std::filesystem;

inline const fs::path kShared = MICROAOT_SHARED_DIR;

// True when `dir` exists; otherwise false, and a test failure when CI is set.
inline bool shared_available(const fs::path& dir) {
  if (fs::exists(dir)) return true;
  if (std::getenv("CI") != nullptr) ADD_FAILURE() << dir << " is missing";
  return false;
}

inline nlohmann::json load_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

inline std::vector<uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every model.tflite of the shared data: the op suite's cases (index.json order), then the real and the
// recurrent models (sorted by name). Empty when the data is absent.
inline std::vector<fs::path> all_model_files() {
  std::vector<fs::path> files;
  if (fs::exists(kShared / "ops" / "index.json")) {
    for (const nlohmann::json& entry : load_json(kShared / "ops" / "index.json")) {
      files.push_back(kShared / "ops" / entry["path"].get<std::string>() / "model.tflite");
    }
  }
  for (const char* group : {"models", "models-recurrent"}) {
    if (!fs::exists(kShared / group)) continue;
    std::vector<fs::path> models;
    for (const auto& dir : fs::directory_iterator(kShared / group)) {
      if (fs::exists(dir.path() / "model.tflite")) models.push_back(dir.path() / "model.tflite");
    }
    std::sort(models.begin(), models.end());
    files.insert(files.end(), models.begin(), models.end());
  }
  return files;
}

}  // namespace shared_data
}  // namespace microaot
