// The supported-operators table: one row per operator of ir/op_list.def, its types ticked.
#include "driver/supported_operators.h"

#include <gtest/gtest.h>

#include "ir/graph.h"

namespace microaot {
namespace {

std::string row_of(const std::string& table, const std::string& op) {
  const size_t at = table.find("\n| " + op + " ");
  if (at == std::string::npos) return "";
  return table.substr(at + 1, table.find('\n', at + 1) - at - 1);
}

TEST(SupportedOperators, OneRowPerOperator) {
  const std::string table = supported_operators_markdown();
  for (int k = 0; k < kOpKindCount; ++k) {
    EXPECT_NE(row_of(table, op_kind_name(static_cast<OpKind>(k))), "") << op_kind_name(static_cast<OpKind>(k));
  }
  EXPECT_NE(table.find(std::to_string(kOpKindCount) + " operators."), std::string::npos);
}

TEST(SupportedOperators, TicksTheTypesOfTheDataInput) {
  const std::string table = supported_operators_markdown();
  // Columns: float32, int8, int16, int32, int64, uint8, bool.
  EXPECT_EQ(row_of(table, "ADD"), "| ADD | 0 | elementwise | ✓ | ✓ | ✓ | ✓ |   |   |   |");
  EXPECT_EQ(row_of(table, "LOGICAL_NOT"), "| LOGICAL_NOT | 87 | elementwise |   |   |   |   |   |   | ✓ |");
  EXPECT_EQ(row_of(table, "RESHAPE"), "| RESHAPE | 22 | shape | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |");
  EXPECT_EQ(row_of(table, "SELECT_V2"), "| SELECT_V2 (input 1) | 123 | elementwise | ✓ | ✓ | ✓ |   |   |   |   |");
}

}  // namespace
}  // namespace microaot
