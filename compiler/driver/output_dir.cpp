#include "driver/output_dir.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
void write_file(const fs::path& path, const std::string& contents) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) throw CompileError("cannot write " + path.string());
}

fs::path sibling(const fs::path& dir, const char* tag) {
  fs::path base = dir;
  if (base.filename().empty()) base = base.parent_path();  // "out/" -> "out"
  return base.parent_path() / (base.filename().string() + tag + std::to_string(getpid()));
}
}  // namespace

void write_output_dir(const std::string& dir, const FileSet& files) {
  const fs::path target = fs::path(dir).filename().empty() ? fs::path(dir).parent_path() : fs::path(dir);
  const fs::path staging = sibling(target, ".microaot-tmp-");
  const fs::path previous = sibling(target, ".microaot-old-");
  std::error_code ec;
  fs::remove_all(staging, ec);
  try {
    if (!target.parent_path().empty()) fs::create_directories(target.parent_path());
    fs::create_directory(staging);
    for (const auto& [path, contents] : files) write_file(staging / path, contents);
    if (fs::exists(target)) fs::rename(target, previous);
    fs::rename(staging, target);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(staging, ec);
    if (!fs::exists(target, ec) && fs::exists(previous, ec)) fs::rename(previous, target, ec);
    throw CompileError(std::string("cannot write the output folder: ") + e.what());
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  fs::remove_all(previous, ec);
}

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/microaot-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) throw CompileError("cannot create a temporary folder in " + pattern);
  path_ = buffer.data();
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace microaot
