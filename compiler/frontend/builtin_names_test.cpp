// Tests of the builtin operator names: every code the format defines has one distinct name, and the names
// agree with the op suite, whose index.json names each case's operator independently.
#include "frontend/builtin_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "frontend/shared_data_test_util.h"
#include "tflite_schema_generated.h"

namespace microaot {
namespace {

using namespace shared_data;

TEST(BuiltinNames, EveryCodeUpToTheLastHasOneDistinctName) {
  std::set<std::string> names;
  for (int code = 0; code <= 209; ++code) {
    ASSERT_NE(tflite_builtin_name(code), nullptr) << code;
    EXPECT_TRUE(names.insert(tflite_builtin_name(code)).second) << tflite_builtin_name(code) << " twice";
  }
  EXPECT_STREQ(tflite_builtin_name(0), "ADD");
  EXPECT_STREQ(tflite_builtin_name(kTfliteCustomCode), "CUSTOM");
  EXPECT_STREQ(tflite_builtin_name(127), "PLACEHOLDER_FOR_GREATER_OP_CODES");
  EXPECT_STREQ(tflite_builtin_name(209), "STABLEHLO_CASE");
  EXPECT_STREQ(tflite_builtin_name(225), "TEMP_STREAMING_CONV_2D");
}

TEST(BuiltinNames, CodesTheFormatDoesNotDefineHaveNone) {
  for (int code : {-1, 210, 224, 226, 1000}) EXPECT_EQ(tflite_builtin_name(code), nullptr) << code;
}

TEST(BuiltinNames, AgreeWithTheOpSuite) {
  const fs::path dir = kShared / "ops";
  if (!shared_available(dir)) GTEST_SKIP() << dir << " not present";
  for (const nlohmann::json& entry : load_json(dir / "index.json")) {
    const std::vector<uint8_t> bytes = read_bytes(dir / entry["path"].get<std::string>() / "model.tflite");
    const tflite::Model& model = *tflite::GetModel(bytes.data());
    const tflite::OperatorCode& code = *model.operator_codes()->Get(0);
    const char* name = tflite_builtin_name(std::max<int>(code.deprecated_builtin_code(), code.builtin_code()));
    ASSERT_NE(name, nullptr) << entry["path"];
    EXPECT_EQ(name, entry["op"].get<std::string>()) << entry["path"];
  }
}

}  // namespace
}  // namespace microaot
