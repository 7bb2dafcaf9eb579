// Writing a generated file set to disk all at once, without ever losing a user's files. The files go into a
// temporary sibling first and are renamed into place only when all are written, so a failed compile leaves
// no partial output and an existing output as it was. What may be replaced is decided first:
//   - an absent path, an empty folder, or a folder microaot wrote and nobody changed (output_marker.h);
//   - with --force also any other folder, which is moved aside to NAME.microaot-backup-N, never deleted;
//   - never a file (for a folder output) or a folder (for an archive), never the root, the home folder,
//     the current folder or one of its ancestors, an input model or a folder holding one, not even with
//     --force.
#pragma once

#include <string>
#include <vector>

#include "codegen/emit.h"
#include "driver/output_marker.h"

namespace microaot {

struct OutputPolicy {
  bool force = false;               // --force: move a folder (or file) microaot did not write aside
  std::vector<std::string> inputs;  // input models: the output may not be one, nor a folder holding one
};

// Writes `files` as the folder `dir`, replacing what the policy allows. Returns the backup path when
// --force moved a folder aside, else "". Throws CompileError (nothing changed) when the policy refuses or a
// write fails.
std::string write_output_dir(const std::string& dir, const FileSet& files, const OutputPolicy& policy = {});

// Throws what write_output_dir(dir, ..., policy) would throw before writing, and writes nothing: for a
// command writing two folders, so that a refusal of the second leaves the first unwritten too.
void check_output_dir(const std::string& dir, const OutputPolicy& policy);

// write_output_dir with the marker (microaot.json) added: it names `models` and every file, so that a later
// write may replace the folder while nobody changed it. `compile -o` and `run --output-dir` both write so.
std::string write_marked_dir(const std::string& dir, FileSet files, const std::vector<ModelStamp>& models,
                             const OutputPolicy& policy);

// Says on stdout where --force moved the previous `shown` (nothing when `backup` is empty).
void report_backup(const std::string& shown, const std::string& backup);

// Every regular file below `dir` (relative path -> contents): what a program wrote into a folder.
FileSet read_folder(const std::string& dir);

// Writes `contents` as the file `path` (an MLF archive), by the same rules: an existing file is replaced
// when `ours(its path)` says microaot wrote it, or with --force (moved aside first).
std::string write_output_file(const std::string& path, const std::string& contents, const OutputPolicy& policy,
                              bool (*ours)(const std::string& path));

// A fresh empty folder under the system's temporary directory; removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  void keep() { keep_ = true; }

 private:
  std::string path_;
  bool keep_ = false;
};

}  // namespace microaot
