// Byte counts with suffixes, and every kind of bad value refused with a message naming the option.
#include "support/byte_size.h"

#include <gtest/gtest.h>

#include "support/diagnostics.h"

namespace microaot {
namespace {

TEST(ByteSize, PlainAndSuffixed) {
  EXPECT_EQ(parse_byte_size("0", "--x"), 0);
  EXPECT_EQ(parse_byte_size("65536", "--x"), 65536);
  EXPECT_EQ(parse_byte_size("8K", "--x"), 8192);
  EXPECT_EQ(parse_byte_size("8KiB", "--x"), 8192);
  EXPECT_EQ(parse_byte_size("64k", "--x"), 65536);
  EXPECT_EQ(parse_byte_size("1M", "--x"), 1048576);
  EXPECT_EQ(parse_byte_size("1MiB", "--x"), 1048576);
  EXPECT_EQ(parse_byte_size("1G", "--x"), 1073741824);
  EXPECT_EQ(parse_byte_size("007", "--x"), 7);
  EXPECT_EQ(parse_byte_size("2147483647", "--x"), kMaxOptionBytes);
}

std::string message_of(const std::string& text, int64_t min = 0) {
  try {
    parse_byte_size(text, "--ram-budget", min);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ByteSize, BadValuesAreRefusedByName) {
  for (const char* text : {"", "-5", "+5", " 5", "5 ", "abc", "5x", "5kb", "5KB", "5Ki", "1.5M", "0x10", "K", "5KK"}) {
    const std::string message = message_of(text);
    EXPECT_NE(message.find("--ram-budget"), std::string::npos) << "'" << text << "' -> " << message;
    EXPECT_NE(message.find(std::string("'") + text + "'"), std::string::npos) << message;
  }
}

TEST(ByteSize, OverflowIsRefused) {
  for (const char* text : {"2147483648", "2G", "2GiB", "2048M", "2097152K", "99999999999999999999999",
                           "9223372036854775807K"}) {
    EXPECT_NE(message_of(text).find("too large"), std::string::npos) << text;
  }
  EXPECT_EQ(message_of("2097151K"), "");
}

TEST(ByteSize, MinimumIsEnforced) {
  EXPECT_NE(message_of("0", 1).find("at least 1"), std::string::npos);
  EXPECT_EQ(message_of("1", 1), "");
}

}  // namespace
}  // namespace microaot
