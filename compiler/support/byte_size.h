// Byte counts as people write them on a command line: "65536", "64k", "64K", "64KiB", "1M", "1MiB".
#pragma once

#include <cstdint>
#include <string>

namespace microaot {

// The largest byte count an option takes: memories are indexed by 32-bit offsets on the targets.
constexpr int64_t kMaxOptionBytes = (int64_t{1} << 31) - 1;

// Parses digits with an optional binary suffix (k, K, KiB = 1024; M, MiB = 1024^2; G, GiB = 1024^3).
// Throws UsageError naming `what` for anything else: a sign, spaces, garbage, a value below `min` or
// above kMaxOptionBytes.
int64_t parse_byte_size(const std::string& text, const std::string& what, int64_t min = 0);

}  // namespace microaot
