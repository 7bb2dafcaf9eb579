// check_operators: ops whose data input has a type outside their op_list.def line are all named at once,
// before any handler check.
#include <gtest/gtest.h>

#include <string>

#include "passes/pass.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

int add_tensor(Graph& graph, DType type, const std::string& name) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = {1, 4};
  graph.tensors.push_back(t);
  return static_cast<int>(graph.tensors.size()) - 1;
}

void add_op(Graph& graph, OpKind kind, int version, std::vector<int> inputs, int output) {
  Op op;
  op.kind = kind;
  op.version = version;
  op.source_index = static_cast<int>(graph.ops.size());
  op.inputs = std::move(inputs);
  op.outputs = {output};
  graph.ops.push_back(op);
}

std::string check_error(Graph& graph) {
  PassContext ctx;
  try {
    check_operators(graph, ctx);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckOperators, NamesEveryOpWhoseTypeIsNotListed) {
  Graph g;
  const int x = add_tensor(g, DType::kInt8, "x");
  const int floored = add_tensor(g, DType::kInt8, "floored");
  const int negated = add_tensor(g, DType::kFloat32, "negated");
  add_op(g, OpKind::Floor, 1, {x}, floored);         // FLOOR takes float32 only
  add_op(g, OpKind::LogicalNot, 1, {negated}, x);    // LOGICAL_NOT takes bool only
  const std::string error = check_error(g);
  EXPECT_NE(error.find("unsupported operator types:"), std::string::npos) << error;
  EXPECT_NE(error.find("op 0: FLOOR version 1 with int8 input 0 'x' (tensor 0) is not supported (it takes float32)"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("op 1: LOGICAL_NOT version 1 with float32 input 0 'negated' (tensor 2) is not supported "
                       "(it takes bool)"),
            std::string::npos)
      << error;
}

TEST(CheckOperators, TheDataInputIsTheListedOne) {
  Graph g;  // SELECT_V2: the bool condition is input 0, the values (input 1) are what the list types
  const int condition = add_tensor(g, DType::kBool, "condition");
  const int values = add_tensor(g, DType::kInt32, "values");
  const int out = add_tensor(g, DType::kInt32, "out");
  add_op(g, OpKind::SelectV2, 1, {condition, values, values}, out);
  EXPECT_NE(check_error(g).find("with int32 input 1 'values' (tensor 1) is not supported (it takes float32, int8, "
                                "int16)"),
            std::string::npos)
      << check_error(g);
}

TEST(CheckOperators, ViewsTakeAnyType) {
  Graph g;
  const int in = add_tensor(g, DType::kInt64, "in");
  const int out = add_tensor(g, DType::kInt64, "out");
  add_op(g, OpKind::Squeeze, 1, {in}, out);
  EXPECT_EQ(check_error(g).find("unsupported operator types"), std::string::npos) << check_error(g);
}

}  // namespace
}  // namespace microaot
