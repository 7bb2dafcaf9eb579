#include "driver/output_marker.h"

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "support/sha256.h"
#include "support/version.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
constexpr const char* kGenerator = "microaot";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The marker's file table, or nullptr-like empty json when `dir` has no valid marker.
nlohmann::json marker_files(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(dir / kMarkerFile, ec))) return nullptr;
  const nlohmann::json marker = nlohmann::json::parse(read_text(dir / kMarkerFile), nullptr, false);
  if (!marker.is_object() || marker.value("generator", "") != kGenerator || !marker["files"].is_object()) {
    return nullptr;
  }
  return marker["files"];
}
}  // namespace

std::string marker_json(const std::vector<ModelStamp>& models, const FileSet& files) {
  nlohmann::ordered_json marker;
  marker["generator"] = kGenerator;
  marker["version"] = MICROAOT_VERSION;
  marker["note"] = "microaot replaces this folder only while every file listed here is unchanged and no other "
                   "file was added";
  marker["models"] = nlohmann::ordered_json::array();
  for (const ModelStamp& m : models) marker["models"].push_back({{"file", m.file}, {"sha256", m.sha256}});
  marker["files"] = nlohmann::ordered_json::object();
  for (const auto& [path, contents] : files) marker["files"][path] = sha256_hex(contents);
  return marker.dump(2) + "\n";
}

bool is_marker(const std::string& text) {
  const nlohmann::json marker = nlohmann::json::parse(text, nullptr, false);
  return marker.is_object() && marker.value("generator", "") == kGenerator;
}

std::vector<std::string> files_at_risk(const fs::path& dir) {
  std::vector<std::string> at_risk;
  std::error_code ec;
  if (fs::is_empty(dir, ec) && !ec) return at_risk;
  const nlohmann::json listed = marker_files(dir);
  if (listed.is_null()) return {std::string(kMarkerFile) + " missing"};
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string rel = fs::relative(it->path(), dir).generic_string();
    const fs::file_status status = it->symlink_status();
    if (fs::is_directory(status)) {
      // microaot writes no empty folder: one is the user's, kept rather than removed without notice.
      if (fs::is_empty(it->path(), ec)) at_risk.push_back(rel + "/ (an empty folder)");
      continue;
    }
    if (rel == kMarkerFile) continue;
    if (!fs::is_regular_file(status) || !listed.contains(rel) || listed[rel] != sha256_hex(read_text(it->path()))) {
      at_risk.push_back(rel);
    }
  }
  if (ec) at_risk.push_back("(cannot list " + dir.string() + ": " + ec.message() + ")");
  return at_risk;
}

}  // namespace microaot
