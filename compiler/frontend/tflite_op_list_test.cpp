// Every line of ir/op_list.def, read from a tiny model (one int8 input, the operator, one output): with its
// listed options table at the format's defaults it is read as the listed OpKind, or, where those defaults
// are not valid for it, refused with an error naming it. A new line of the list is tested here as it is.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "frontend/builtin_names.h"
#include "frontend/tflite_reader.h"
#include "frontend/tflite_test_ops.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_test {
// Test names and failure messages show the operator, not the bytes of the list line.
void PrintTo(const ListedOp& listed, std::ostream* out) { *out << listed.name; }
}  // namespace tflite_test

namespace {

using namespace tflite_test;

ModelSpec one_op_model(const ListedOp& listed) {
  ModelSpec m;
  m.tensors = {activation("in", {1, 2, 2, 4}, 0.5f, 0), activation("out", {1, 2, 2, 4}, 0.5f, 0)};
  m.ops = {listed_op_spec(listed, {0}, {1})};
  m.inputs = {0};
  m.outputs = {1};
  return m;
}

// Reads `m`: its one op must be read as `listed`, or refused by an error that starts by naming it.
// Returns the error, empty when the model was read.
std::string read_or_refusal(const ModelSpec& m, const ListedOp& listed) {
  try {
    const Graph graph = read_tflite(build_model(m));
    EXPECT_EQ(graph.ops.size(), 1u);
    EXPECT_TRUE(!graph.ops.empty() && graph.ops[0].kind == listed.kind) << op_kind_name(listed.kind);
    return "";
  } catch (const CompileError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(std::string(listed.name) + " (op 0): ", 0), 0u) << message;
    return message;
  }
}

std::string missing(tflite::BuiltinOptions table) { return std::string("missing ") + EnumNameBuiltinOptions(table); }

class ListedOperator : public ::testing::TestWithParam<ListedOp> {};

TEST_P(ListedOperator, CodeColumnNamesTheOperator) {
  EXPECT_STREQ(tflite_builtin_name(GetParam().code), GetParam().name);
}

// Refused only for a value: the reader takes the listed table as the one it looks for.
TEST_P(ListedOperator, WithItsDefaultTableIsReadAsItsKindOrRefusedByName) {
  const std::string refusal = read_or_refusal(one_op_model(GetParam()), GetParam());
  EXPECT_EQ(refusal.find(missing(GetParam().options_type)), std::string::npos) << refusal;
}

// An operator that needs its table and has none is refused naming the table the list gives for it; one
// the tiny model cannot hold whatever its table (READ_VARIABLE needs a VAR_HANDLE) is refused as with it.
TEST_P(ListedOperator, WithoutATableIsReadOrRefusedNamingTheListedTable) {
  ModelSpec m = one_op_model(GetParam());
  m.ops[0].options_type = tflite::BuiltinOptions::NONE;
  m.ops[0].options = nullptr;
  const std::string refusal = read_or_refusal(m, GetParam());
  const std::string with_table = read_or_refusal(one_op_model(GetParam()), GetParam());
  EXPECT_TRUE(refusal.empty() || refusal.find(missing(GetParam().options_type)) != std::string::npos ||
              refusal == with_table)
      << refusal;
}

INSTANTIATE_TEST_SUITE_P(OpList, ListedOperator, ::testing::ValuesIn(kListedOps),
                         [](const ::testing::TestParamInfo<ListedOp>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace microaot
