// --custom-op values: the accepted forms, the derived function name, and every refusal with its message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "driver/custom_op_options.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

// The message of the UsageError `parse` throws for `text`; "" when it is accepted.
std::string refusal(const std::string& text) {
  try {
    parse_custom_op(text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CustomOpOptions, NameAndHeaderGiveTheDerivedFunctionAndNoScratch) {
  const CustomOpBinding b = parse_custom_op("ClipScale=ops/clip_scale.h");
  EXPECT_EQ(b.name, "ClipScale");
  EXPECT_EQ(b.header, "ops/clip_scale.h");
  EXPECT_EQ(b.function, "microaot_custom_clipscale");
  EXPECT_EQ(b.scratch_bytes, 0);
  EXPECT_EQ(custom_header_output_path(b), "custom/clip_scale.h");
}

TEST(CustomOpOptions, FunctionAndScratchKeysInAnyOrder) {
  const CustomOpBinding b = parse_custom_op("SOFTMAX=my.h,scratch=1K,function=my_softmax");
  EXPECT_EQ(b.function, "my_softmax");
  EXPECT_EQ(b.scratch_bytes, 1024);
  EXPECT_EQ(parse_custom_op("X=x.h,scratch=0").scratch_bytes, 0);
}

TEST(CustomOpOptions, DefaultFunctionNeedsACIdentifier) {
  EXPECT_EQ(default_custom_function("TFLite_Detection_PostProcess"), "microaot_custom_tflite_detection_postprocess");
  EXPECT_EQ(default_custom_function("Foo-Bar"), "");
  EXPECT_EQ(default_custom_function("3x"), "");
  EXPECT_EQ(default_custom_function(""), "");
  EXPECT_EQ(default_custom_function("caf\xc3\xa9"), "");
}

TEST(CustomOpOptions, EveryMalformedValueIsRefusedNamingIt) {
  const std::pair<const char*, const char*> cases[] = {
      {"ClipScale", "expected NAME=HEADER[,function=FN][,scratch=BYTES]"},
      {"Foo-Bar=x.h", "NAME 'Foo-Bar' must be letters, digits and '_'"},
      {"=x.h", "NAME '' must be"},
      {"9a=x.h", "NAME '9a' must be"},
      {"A=", "HEADER must be a file NAME.h"},
      {"A=x.c", "HEADER must be a file NAME.h"},
      {"A=dir/x\".h", "HEADER must be a file NAME.h"},
      {"A=x.h,scratch", "'scratch' needs a value"},
      {"A=x.h,function=", "'function' needs a value"},
      {"A=x.h,function=1f", "function '1f' is not a C identifier"},
      {"A=x.h,scratch=-5", "scratch: '-5' is negative"},
      {"A=x.h,scratch=12KB", "scratch: '12KB' has an unknown unit"},
      {"A=x.h,scratch=4,scratch=8", "'scratch' is given twice"},
      {"A=x.h,size=4", "unknown key 'size' (keys: function, scratch)"},
  };
  for (const auto& [text, message] : cases) {
    const std::string got = refusal(text);
    EXPECT_EQ(got.rfind(std::string("--custom-op ") + text + ":", 0), 0u) << got;
    EXPECT_NE(got.find(message), std::string::npos) << text << " -> " << got;
  }
}

class CustomOpHeaders : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("microaot_custom_op_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_ / "other");
    std::ofstream(dir_ / "a.h") << "/* a */\n";
    std::ofstream(dir_ / "other" / "a.h") << "/* other a */\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

TEST_F(CustomOpHeaders, TheHeaderIsReadForTheOutputFolder) {
  const CustomOpBindings b = resolve_custom_ops({"A=" + path("a.h"), "B=" + path("a.h") + ",scratch=16"});
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].header_text, "/* a */\n");
  EXPECT_EQ(b[1].header_text, "/* a */\n");  // one header may declare several functions
}

TEST_F(CustomOpHeaders, ANameTwiceIsAUsageError) {
  EXPECT_THROW(
      {
        try {
          resolve_custom_ops({"A=" + path("a.h"), "A=" + path("a.h")});
        } catch (const UsageError& e) {
          EXPECT_STREQ(e.what(), "--custom-op A is given twice");
          throw;
        }
      },
      UsageError);
}

TEST_F(CustomOpHeaders, TwoHeadersOfOneFileNameAreAUsageError) {
  try {
    resolve_custom_ops({"A=" + path("a.h"), "B=" + path("other/a.h")});
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("has the file name of"), std::string::npos) << e.what();
  }
}

TEST_F(CustomOpHeaders, AMissingHeaderIsAFileError) {
  try {
    resolve_custom_ops({"A=" + path("missing.h")});
    FAIL() << "accepted";
  } catch (const UsageError& e) {
    FAIL() << "a missing file is not a usage error: " << e.what();
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()), "--custom-op A: cannot read header '" + path("missing.h") + "'");
  }
}

}  // namespace
}  // namespace microaot
