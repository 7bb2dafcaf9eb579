#include "ir/graph.h"

#include <gtest/gtest.h>

namespace microaot {
namespace {

TEST(Graph, OpListNamesAndCodesFollowTheDefFile) {
  EXPECT_STREQ(op_kind_name(OpKind::Conv2D), "CONV_2D");
  EXPECT_EQ(op_kind_builtin_code(OpKind::Conv2D), 3);
  EXPECT_EQ(op_kind_builtin_code(OpKind::Quantize), 114);
}

TEST(Graph, StorageFollowsAliasChains) {
  Graph g;
  g.tensors.resize(3);
  g.tensors[1].alias_of = 0;
  g.tensors[2].alias_of = 1;
  EXPECT_EQ(g.storage_of(2), 0);
  EXPECT_EQ(g.storage_of(0), 0);
}

TEST(Graph, ByteSizeUsesElementSize) {
  Tensor t;
  t.dtype = DType::kFloat32;
  t.shape = {2, 3};
  EXPECT_EQ(t.byte_size(), 24);
}

}  // namespace
}  // namespace microaot
