#include "support/tar_archive.h"

#include <cstring>

#include "support/diagnostics.h"

namespace microaot {

namespace {
constexpr size_t kBlock = 512;
// Field offsets and widths of the ustar header (POSIX.1-1988).
constexpr size_t kName = 0, kNameLen = 100, kMode = 100, kUid = 108, kGid = 116, kSize = 124, kMtime = 136,
                 kChecksum = 148, kType = 156, kMagic = 257, kUname = 265, kGname = 297, kPrefix = 345,
                 kPrefixLen = 155;

// `value` in octal, zero-padded to width - 1 digits and NUL-terminated.
void put_octal(std::string& header, size_t at, size_t width, uint64_t value) {
  for (size_t i = width - 1; i-- > 0; value >>= 3) header[at + i] = static_cast<char>('0' + (value & 7));
  header[at + width - 1] = '\0';
}

void put_text(std::string& header, size_t at, const std::string& text) { header.replace(at, text.size(), text); }

// Splits `path` into ustar's prefix and name fields.
std::pair<std::string, std::string> split_path(const std::string& path) {
  if (path.size() <= kNameLen) return {"", path};
  for (size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    if (slash <= kPrefixLen && path.size() - slash - 1 <= kNameLen && slash + 1 < path.size()) {
      return {path.substr(0, slash), path.substr(slash + 1)};
    }
  }
  throw CompileError("path too long for a tar archive: " + path);
}

unsigned checksum(const std::string& header) {
  unsigned sum = 0;
  for (size_t i = 0; i < kBlock; ++i) {
    const bool in_field = i >= kChecksum && i < kChecksum + 8;
    sum += in_field ? ' ' : static_cast<unsigned char>(header[i]);
  }
  return sum;
}

uint64_t get_octal(const char* field, size_t width, bool& ok) {
  uint64_t value = 0;
  size_t i = 0;
  while (i < width && field[i] == ' ') ++i;
  for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i) value = value * 8 + static_cast<uint64_t>(field[i] - '0');
  ok = ok && (i == width || field[i] == '\0' || field[i] == ' ');
  return value;
}

std::string get_text(const char* field, size_t width) { return std::string(field, strnlen(field, width)); }
}  // namespace

void TarWriter::add(const std::string& path, char type, const std::string& contents) {
  const auto [prefix, name] = split_path(path);
  std::string header(kBlock, '\0');
  put_text(header, kName, name);
  put_octal(header, kMode, 8, type == '5' ? 0755 : 0644);
  put_octal(header, kUid, 8, 0);
  put_octal(header, kGid, 8, 0);
  put_octal(header, kSize, 12, contents.size());
  put_octal(header, kMtime, 12, 0);
  header[kType] = type;
  put_text(header, kMagic, std::string("ustar\0" "00", 8));
  put_text(header, kUname, "root");
  put_text(header, kGname, "root");
  put_text(header, kPrefix, prefix);
  put_octal(header, kChecksum, 7, checksum(header));
  header[kChecksum + 7] = ' ';
  bytes_ += header;
  bytes_ += contents;
  bytes_.append((kBlock - contents.size() % kBlock) % kBlock, '\0');
}

void TarWriter::add_directory(const std::string& path) { add(path, '5', ""); }
void TarWriter::add_file(const std::string& path, const std::string& contents) { add(path, '0', contents); }

std::string TarWriter::finish() const { return bytes_ + std::string(2 * kBlock, '\0'); }

std::vector<TarMember> read_tar(const std::string& archive) {
  std::vector<TarMember> members;
  for (size_t at = 0; at + kBlock <= archive.size();) {
    const std::string header = archive.substr(at, kBlock);
    if (header == std::string(kBlock, '\0')) break;
    bool ok = header.compare(kMagic, 5, "ustar") == 0;
    const uint64_t size = get_octal(header.data() + kSize, 12, ok);
    const uint64_t sum = get_octal(header.data() + kChecksum, 8, ok);
    if (!ok || sum != checksum(header) || size > archive.size() - at - kBlock) break;
    TarMember member;
    const std::string prefix = get_text(header.data() + kPrefix, kPrefixLen);
    member.path = (prefix.empty() ? "" : prefix + "/") + get_text(header.data() + kName, kNameLen);
    member.type = header[kType] == '\0' ? '0' : header[kType];
    member.contents = archive.substr(at + kBlock, size);
    members.push_back(std::move(member));
    at += kBlock + (size + kBlock - 1) / kBlock * kBlock;
  }
  return members;
}

}  // namespace microaot
