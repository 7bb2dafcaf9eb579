#include "driver/output_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include "driver/output_marker.h"
#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
// What is at the output path and what happens to it.
enum class Existing { kNothing, kOurs, kForeign };  // kOurs is replaced, kForeign kept as a backup

void write_file(const fs::path& path, const std::string& contents) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) throw CompileError("cannot write " + path.string());
}

fs::path sibling(const fs::path& target, const std::string& tag) {
  return target.parent_path() / (target.filename().string() + tag + std::to_string(getpid()));
}

// Absolute, "." and ".." and symbolic links resolved (a link to a folder means that folder).
fs::path resolved_path(const std::string& given) {
  fs::path path = fs::weakly_canonical(fs::absolute(given));
  if (path.filename().empty()) path = path.parent_path();  // "out/" -> "out"
  return path;
}

// `inner` is `outer` or lies below it (both resolved).
bool is_within(const fs::path& inner, const fs::path& outer) {
  return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
}

// The root, the current folder, the home folder, an input model and every folder holding one of them
// are never an output, whatever the options.
void refuse_protected(const fs::path& target, const std::string& shown, const OutputPolicy& policy) {
  std::vector<std::pair<fs::path, std::string>> kept = {{fs::current_path(), "the current folder"}};
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') kept.emplace_back(resolved_path(home), "your home folder");
  for (const std::string& input : policy.inputs) kept.emplace_back(resolved_path(input), "the input model '" + input + "'");
  for (const auto& [path, what] : kept) {
    if (is_within(path, target)) {
      throw CompileError("refusing to write the output to '" + shown + "': it " +
                         (path == target ? "is " : "holds ") + what + " (not even with --force)");
    }
  }
}

bool is_mount_point(const fs::path& dir) {
  struct stat self {}, parent {};
  return stat(dir.c_str(), &self) == 0 && stat(dir.parent_path().c_str(), &parent) == 0 &&
         self.st_dev != parent.st_dev;
}

// The first free NAME.microaot-backup-N beside `target`.
fs::path backup_path(const fs::path& target) {
  for (int n = 1;; ++n) {
    const fs::path candidate = target.parent_path() / (target.filename().string() + ".microaot-backup-" + std::to_string(n));
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(candidate, ec))) return candidate;
  }
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < 5; ++i) text += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > 5) text += " (and " + std::to_string(names.size() - 5) + " more)";
  return text;
}

std::string force_hint(const fs::path& target, const std::string& shown) {
  return "Choose another output, or pass --force to move '" + shown + "' aside to '" + backup_path(target).string() +
         "' (nothing is deleted) and write a new one.";
}

// Refuses what may never be replaced; else says whether an existing entry is ours or foreign (--force).
Existing check_existing(const fs::path& target, const std::string& shown, const OutputPolicy& policy, bool want_dir,
                        bool (*ours)(const std::string&)) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(target, ec);
  if (!fs::exists(status)) return Existing::kNothing;
  if (fs::is_symlink(status)) throw CompileError("'" + shown + "' is a symbolic link to nothing; remove it first");
  if (want_dir ? !fs::is_directory(status) : !fs::is_regular_file(status)) {
    const std::string what = fs::is_directory(status) ? "a folder, not a file"
                             : want_dir                ? "a file, not a folder"
                                                       : "not a regular file";
    throw CompileError("'" + shown + "' is " + what + "; microaot never replaces it (not even with --force)");
  }
  std::vector<std::string> at_risk;
  if (want_dir) at_risk = files_at_risk(target);
  if (!want_dir && !ours(target.string())) at_risk = {"the file itself"};
  if (at_risk.empty()) return Existing::kOurs;
  if (policy.force && !is_mount_point(target)) return Existing::kForeign;
  if (policy.force) throw CompileError("'" + shown + "' is a mount point; microaot does not move it (not even with --force)");
  if (!want_dir) throw CompileError("'" + shown + "' exists and is not an archive microaot wrote. " + force_hint(target, shown));
  if (at_risk.front() == std::string(kMarkerFile) + " missing") {
    throw CompileError("'" + shown + "' is not empty and was not written by microaot (it has no " + kMarkerFile +
                       "), so its files would be lost. " + force_hint(target, shown) +
                       " (Folders written by microaot before 0.8.0 have no marker: --force once.)");
  }
  throw CompileError("'" + shown + "' holds files microaot did not write or that changed since: " + listed(at_risk) +
                     ". " + force_hint(target, shown));
}

// Moves `staging` to `target`. What was there is moved aside first and then deleted when it was ours, or
// kept as a backup (returned) when it was foreign. On failure `target` is put back as it was.
std::string move_into_place(const fs::path& staging, const fs::path& target, Existing existing) {
  std::error_code ec;
  fs::path aside;
  if (existing == Existing::kForeign) aside = backup_path(target);
  if (existing == Existing::kOurs) aside = sibling(target, ".microaot-old-");
  if (!aside.empty()) {
    if (existing == Existing::kOurs) fs::remove_all(aside, ec);  // our own leftover of this process id
    fs::rename(target, aside);
  }
  try {
    fs::rename(staging, target);
  } catch (...) {
    if (!aside.empty()) fs::rename(aside, target, ec);
    throw;
  }
  if (existing == Existing::kOurs) fs::remove_all(aside, ec);
  return existing == Existing::kForeign ? aside.string() : "";
}

// Writes into a staging sibling with `fill`, then moves it into place; nothing is left behind on failure.
template <typename Fill>
std::string write_staged(const fs::path& target, Existing existing, const std::string& what, Fill fill) {
  const fs::path staging = sibling(target, ".microaot-tmp-");
  std::error_code ec;
  fs::remove_all(staging, ec);
  try {
    fs::create_directories(target.parent_path());
    fill(staging);
    return move_into_place(staging, target, existing);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(staging, ec);
    throw CompileError("cannot write the output " + what + ": " + e.what());
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
}
}  // namespace

std::string write_output_dir(const std::string& dir, const FileSet& files, const OutputPolicy& policy) {
  const fs::path target = resolved_path(dir);
  refuse_protected(target, dir, policy);
  const Existing existing = check_existing(target, dir, policy, true, nullptr);
  return write_staged(target, existing, "folder", [&](const fs::path& staging) {
    fs::create_directory(staging);
    for (const auto& [path, contents] : files) write_file(staging / path, contents);
  });
}

void check_output_dir(const std::string& dir, const OutputPolicy& policy) {
  const fs::path target = resolved_path(dir);
  refuse_protected(target, dir, policy);
  check_existing(target, dir, policy, true, nullptr);
}

std::string write_marked_dir(const std::string& dir, FileSet files, const std::vector<ModelStamp>& models,
                             const OutputPolicy& policy) {
  files[kMarkerFile] = marker_json(models, files);
  return write_output_dir(dir, files, policy);
}

void report_backup(const std::string& shown, const std::string& backup) {
  if (!backup.empty()) std::printf("microaot: the previous '%s' was moved aside to '%s'\n", shown.c_str(), backup.c_str());
}

FileSet read_folder(const std::string& dir) {
  FileSet files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), dir).generic_string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

std::string write_output_file(const std::string& path, const std::string& contents, const OutputPolicy& policy,
                              bool (*ours)(const std::string& path)) {
  const fs::path target = resolved_path(path);
  refuse_protected(target, path, policy);
  const Existing existing = check_existing(target, path, policy, false, ours);
  return write_staged(target, existing, "file", [&](const fs::path& staging) { write_file(staging, contents); });
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
