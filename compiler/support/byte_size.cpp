#include "support/byte_size.h"

#include <cctype>

#include "support/diagnostics.h"

namespace microaot {

namespace {
struct Suffix {
  const char* text;
  int64_t factor;
};
constexpr Suffix kSuffixes[] = {{"", 1},           {"k", 1024},          {"K", 1024},
                                {"KiB", 1024},     {"M", 1024 * 1024},   {"MiB", 1024 * 1024},
                                {"G", 1 << 30},    {"GiB", 1 << 30}};

[[noreturn]] void refuse(const std::string& what, const std::string& text, const std::string& why) {
  throw UsageError(what + ": '" + text + "' " + why);
}
}  // namespace

int64_t parse_byte_size(const std::string& text, const std::string& what, int64_t min) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (!text.empty() && text[0] == '-') refuse(what, text, "is negative; a byte count is 0 or more");
  if (digits == 0) refuse(what, text, "is not a byte count (e.g. 8192, 8K, 8KiB, 1M, 1MiB)");
  const std::string suffix = text.substr(digits);
  const Suffix* unit = nullptr;
  for (const Suffix& s : kSuffixes) {
    if (suffix == s.text) unit = &s;
  }
  if (unit == nullptr) refuse(what, text, "has an unknown unit '" + suffix + "' (use K/KiB, M/MiB or G/GiB)");
  int64_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    value = value * 10 + (text[i] - '0');
    if (value > kMaxOptionBytes) break;  // stops before int64 could overflow
  }
  if (value > kMaxOptionBytes / unit->factor) refuse(what, text, "is too large (at most 2 GiB - 1 bytes)");
  value *= unit->factor;
  if (value < min) refuse(what, text, "is too small (at least " + std::to_string(min) + " bytes)");
  return value;
}

}  // namespace microaot
