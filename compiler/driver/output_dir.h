// Writing a generated file set to disk all at once: into a temporary sibling folder first, renamed into
// place only when every file is written, so a failed compile never leaves a partial output folder.
#pragma once

#include <string>

#include "codegen/emit.h"

namespace microaot {

// Replaces `dir` (if it exists) with a folder holding exactly `files`. Throws CompileError on I/O failure,
// leaving `dir` as it was.
void write_output_dir(const std::string& dir, const FileSet& files);

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
