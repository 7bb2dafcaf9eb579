// alias_variable_reads: a READ_VARIABLE whose copy is read before the variable's next write becomes a view
// of the variable; one whose copy is read after that write, or is a graph output, stays a copy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "passes/pass.h"

namespace microaot {
namespace {

int add_tensor(Graph& g, const std::string& name, bool persistent = false) {
  Tensor t;
  t.name = name;
  t.dtype = DType::kInt8;
  t.shape = {1, 8};
  t.is_persistent = persistent;
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

void add_op(Graph& g, OpKind kind, std::vector<int> inputs, int output) {
  g.ops.push_back(Op{kind, static_cast<int>(g.ops.size()), 1, std::move(inputs), {output}, NoOptions{}});
}

// x, var -> READ_VARIABLE -> copy; ADD(copy, x) -> sum placed by `reader_first` before or after
// ASSIGN_VARIABLE(x) -> var; the sum is the graph output.
struct Streaming {
  Graph g;
  int var, copy, sum;
};

Streaming streaming(bool reader_first) {
  Streaming s;
  Graph& g = s.g;
  const int x = add_tensor(g, "x");
  s.var = add_tensor(g, "var", true);
  s.copy = add_tensor(g, "copy");
  s.sum = add_tensor(g, "sum");
  add_op(g, OpKind::ReadVariable, {s.var}, s.copy);
  if (reader_first) add_op(g, OpKind::Add, {s.copy, x}, s.sum);
  add_op(g, OpKind::AssignVariable, {x}, s.var);
  if (!reader_first) add_op(g, OpKind::Add, {s.copy, x}, s.sum);
  g.inputs = {x};
  g.outputs = {s.sum};
  return s;
}

bool run(Graph& g) {
  PassContext ctx;
  return alias_variable_reads(g, ctx);
}

TEST(AliasVariableReads, ACopyReadBeforeTheNextWriteBecomesAView) {
  Streaming s = streaming(true);
  ASSERT_TRUE(run(s.g));
  EXPECT_EQ(s.g.storage_of(s.copy), s.var);
  ASSERT_EQ(s.g.ops.size(), 2u);
  EXPECT_EQ(s.g.ops[0].kind, OpKind::Add);
  EXPECT_EQ(s.g.ops[1].kind, OpKind::AssignVariable);
}

TEST(AliasVariableReads, ACopyReadAfterTheNextWriteStays) {
  Streaming s = streaming(false);
  EXPECT_FALSE(run(s.g));
  EXPECT_EQ(s.g.storage_of(s.copy), s.copy);
  EXPECT_EQ(s.g.ops.size(), 3u);
}

TEST(AliasVariableReads, ACopyThatIsAGraphOutputStays) {
  Streaming s = streaming(true);
  s.g.outputs.push_back(s.copy);
  EXPECT_FALSE(run(s.g));
  EXPECT_EQ(s.g.storage_of(s.copy), s.copy);
}

TEST(AliasVariableReads, ACopyAssignedBackToItsVariableStays) {
  Streaming s = streaming(true);
  s.g.ops[2].inputs = {s.copy};  // ASSIGN_VARIABLE(copy) -> var: aliased, it would copy var onto itself
  EXPECT_FALSE(run(s.g));
}

}  // namespace
}  // namespace microaot
