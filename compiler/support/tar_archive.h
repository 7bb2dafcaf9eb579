// A minimal POSIX ustar archive: a writer for the Model Library Format output (folders and regular files,
// owner root, mode 0755/0644, time 0 so that the same files give the same bytes) and a reader for what
// such a writer produced.
#pragma once

#include <string>
#include <vector>

namespace microaot {

class TarWriter {
 public:
  // `path` as stored, e.g. "./codegen/host/src/model.c"; a folder's path ends with '/'. Paths longer than
  // ustar can hold (100 bytes of name after a split at '/' with up to 155 bytes of prefix) throw.
  void add_directory(const std::string& path);
  void add_file(const std::string& path, const std::string& contents);
  // The archive: every entry in the order added, then the two zero blocks that end it.
  std::string finish() const;

 private:
  void add(const std::string& path, char type, const std::string& contents);
  std::string bytes_;
};

struct TarMember {
  std::string path;
  char type = '0';  // '0' regular file, '5' folder
  std::string contents;
};

// The members of a ustar archive up to its end blocks, or up to the first block that is not a valid
// ustar header (bad magic or checksum) or whose contents are cut off: a truncated archive yields the
// members before the cut.
std::vector<TarMember> read_tar(const std::string& archive);

}  // namespace microaot
