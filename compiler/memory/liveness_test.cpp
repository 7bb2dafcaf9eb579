#include "memory/liveness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace microaot {
namespace {

int add_tensor(Graph& g, const std::string& name, DType dtype, std::vector<int32_t> shape, int alias_of = -1,
               bool constant = false) {
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.alias_of = alias_of;
  t.is_constant = constant;
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

void add_op(Graph& g, OpKind kind, std::vector<int> inputs, std::vector<int> outputs) {
  Op op;
  op.kind = kind;
  op.source_index = static_cast<int>(g.ops.size());
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  g.ops.push_back(op);
}

// input(10 B) -FC-> fc_out(4 B) -RESHAPE (alias)-> reshaped -SOFTMAX-> probs (output)
Graph chain_graph() {
  Graph g;
  int in = add_tensor(g, "input", DType::kInt8, {1, 10});
  int w = add_tensor(g, "weights", DType::kInt8, {4, 10}, -1, true);
  int b = add_tensor(g, "bias", DType::kInt32, {4}, -1, true);
  int fc = add_tensor(g, "fc_out", DType::kInt8, {1, 4});
  int reshaped = add_tensor(g, "reshaped", DType::kInt8, {4}, fc);
  int probs = add_tensor(g, "probs", DType::kInt8, {4});
  add_op(g, OpKind::FullyConnected, {in, w, b}, {fc});
  add_op(g, OpKind::Reshape, {fc}, {reshaped});
  add_op(g, OpKind::Softmax, {reshaped}, {probs});
  g.inputs = {in};
  g.outputs = {probs};
  return g;
}

void expect_record(const BufferRecord& r, int id, int64_t size, int64_t alignment, int first, int last) {
  SCOPED_TRACE("tensor " + std::to_string(id));
  EXPECT_EQ(r.tensor_id, id);
  EXPECT_EQ(r.size, size);
  EXPECT_EQ(r.alignment, alignment);
  EXPECT_EQ(r.first_op, first);
  EXPECT_EQ(r.last_op, last);
}

TEST(Liveness, ChainSkipsConstantsAndFoldsAliasesIntoTheirStorage) {
  std::vector<BufferRecord> records = analyze_lifetimes(chain_graph(), 16);
  ASSERT_EQ(records.size(), 3u);
  expect_record(records[0], 0, 16, 16, 0, 0);
  expect_record(records[1], 3, 16, 16, 0, 2);  // SOFTMAX reads it through the alias at op 2
  expect_record(records[2], 5, 16, 16, 2, 2);
}

TEST(Liveness, SizesRoundUpToTheAlignmentAndElementSize) {
  std::vector<BufferRecord> records = analyze_lifetimes(chain_graph(), 4);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].size, 12);  // 10 bytes
  EXPECT_EQ(records[1].size, 4);
  Graph g;
  int in = add_tensor(g, "x", DType::kFloat32, {3});
  int out = add_tensor(g, "y", DType::kFloat32, {3});
  add_op(g, OpKind::Softmax, {in}, {out});
  g.inputs = {in};
  g.outputs = {out};
  records = analyze_lifetimes(g, 1);  // float needs 4 even when the target asks for less
  ASSERT_EQ(records.size(), 2u);
  expect_record(records[0], 0, 12, 4, 0, 0);
}

TEST(Liveness, GraphInputsLiveFromTheFirstOpAndOutputsUntilTheLast) {
  Graph g;
  int a = add_tensor(g, "a", DType::kInt8, {32});
  int b = add_tensor(g, "b", DType::kInt8, {32});  // second input, first read by op 2
  int early = add_tensor(g, "early_out", DType::kInt8, {32});
  int mid = add_tensor(g, "mid", DType::kInt8, {32});
  int last = add_tensor(g, "last_out", DType::kInt8, {32});
  add_op(g, OpKind::Softmax, {a}, {early});
  add_op(g, OpKind::Softmax, {a}, {mid});
  add_op(g, OpKind::Add, {mid, b}, {last});
  add_op(g, OpKind::Softmax, {last}, {});  // a consumer after both outputs, to extend the graph
  g.inputs = {a, b};
  g.outputs = {early, last};
  std::vector<BufferRecord> records = analyze_lifetimes(g, 16);
  ASSERT_EQ(records.size(), 5u);
  expect_record(records[0], a, 32, 16, 0, 1);
  expect_record(records[1], b, 32, 16, 0, 2);
  expect_record(records[2], early, 32, 16, 0, 3);
  expect_record(records[3], mid, 32, 16, 1, 2);
  expect_record(records[4], last, 32, 16, 2, 3);
}

TEST(Liveness, UnreadTensorsOccupyTheirProducersStepAndUnmentionedOnesNothing) {
  Graph g;
  int in = add_tensor(g, "in", DType::kInt8, {8});
  int unread = add_tensor(g, "unread", DType::kInt8, {8});
  int out = add_tensor(g, "out", DType::kInt8, {8});
  add_tensor(g, "dangling", DType::kInt8, {8});
  int x = add_tensor(g, "x", DType::kInt8, {8});
  add_op(g, OpKind::Softmax, {in}, {x});
  add_op(g, OpKind::Conv2D, {x, kNoTensor}, {out, unread});
  g.inputs = {in};
  g.outputs = {out};
  std::vector<BufferRecord> records = analyze_lifetimes(g, 8);
  ASSERT_EQ(records.size(), 4u);
  expect_record(records[1], unread, 8, 8, 1, 1);
  expect_record(records[3], x, 8, 8, 0, 1);
}

TEST(Liveness, AnAliasThatIsAGraphOutputKeepsItsStorageToTheEnd) {
  Graph g;
  int in = add_tensor(g, "in", DType::kInt8, {16});
  int y = add_tensor(g, "y", DType::kInt8, {16});
  int view = add_tensor(g, "view", DType::kInt8, {4, 4}, y);
  int z = add_tensor(g, "z", DType::kInt8, {16});
  add_op(g, OpKind::Softmax, {in}, {y});
  add_op(g, OpKind::Reshape, {y}, {view});
  add_op(g, OpKind::Softmax, {in}, {z});
  g.inputs = {in};
  g.outputs = {view, z};
  std::vector<BufferRecord> records = analyze_lifetimes(g, 16);
  ASSERT_EQ(records.size(), 3u);
  expect_record(records[1], y, 16, 16, 0, 2);
}

TEST(Liveness, AliasesOfConstantsNeedNoArena) {
  Graph g;
  int c = add_tensor(g, "c", DType::kInt8, {16}, -1, true);
  int view = add_tensor(g, "view", DType::kInt8, {4, 4}, c);
  int out = add_tensor(g, "out", DType::kInt8, {4, 4});
  add_op(g, OpKind::Softmax, {view}, {out});
  g.outputs = {out};
  std::vector<BufferRecord> records = analyze_lifetimes(g, 16);
  ASSERT_EQ(records.size(), 1u);
  expect_record(records[0], out, 16, 16, 0, 0);
}

TEST(Liveness, AGraphWithoutOpsKeepsItsInterfaceAtStepZero) {
  Graph g;
  int t = add_tensor(g, "t", DType::kInt8, {5});
  g.inputs = {t};
  g.outputs = {t};
  std::vector<BufferRecord> records = analyze_lifetimes(g, 16);
  ASSERT_EQ(records.size(), 1u);
  expect_record(records[0], t, 16, 16, 0, 0);
}

BufferRecord rec(int id, int64_t size, int first, int last) { return BufferRecord{id, size, 1, first, last}; }

TEST(PeakLiveBytes, HandCases) {
  PeakInfo none = peak_live_bytes({});
  EXPECT_EQ(none.bytes, 0);
  EXPECT_EQ(none.op, -1);
  PeakInfo chain = peak_live_bytes({rec(0, 100, 0, 1), rec(1, 50, 1, 2), rec(2, 70, 2, 3)});
  EXPECT_EQ(chain.bytes, 150);
  EXPECT_EQ(chain.op, 1);
  PeakInfo tie = peak_live_bytes({rec(0, 10, 2, 2), rec(1, 10, 0, 0)});  // the earliest op wins a tie
  EXPECT_EQ(tie.bytes, 10);
  EXPECT_EQ(tie.op, 0);
  PeakInfo graph = peak_live_bytes(analyze_lifetimes(chain_graph(), 16));
  EXPECT_EQ(graph.bytes, 32);  // input + fc_out at op 0, fc_out + probs at op 2
  EXPECT_EQ(graph.op, 0);
}

TEST(PeakLiveBytes, MatchesBruteForceOnRandomLifetimes) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<BufferRecord> records;
    int count = std::uniform_int_distribution<int>(1, 12)(rng);
    for (int i = 0; i < count; ++i) {
      int first = std::uniform_int_distribution<int>(0, 9)(rng);
      int last = first + std::uniform_int_distribution<int>(0, 5)(rng);
      records.push_back(rec(i, std::uniform_int_distribution<int>(0, 300)(rng), first, last));
    }
    PeakInfo expected{-1, -1};
    for (int op = 0; op <= 15; ++op) {
      int64_t live = 0;
      for (const BufferRecord& r : records) live += (r.first_op <= op && op <= r.last_op) ? r.size : 0;
      bool anything_live = std::any_of(records.begin(), records.end(),
                                       [&](const BufferRecord& r) { return r.first_op <= op && op <= r.last_op; });
      if (anything_live && live > expected.bytes) expected = {live, op};
    }
    PeakInfo got = peak_live_bytes(records);
    ASSERT_EQ(got.bytes, expected.bytes) << "trial " << trial;
    ASSERT_EQ(got.op, expected.op) << "trial " << trial;
  }
}

TEST(LiveRecordsAt, ListsTheNonEmptyRecordsLiveAtTheOpInRecordOrder) {
  const std::vector<BufferRecord> records = {rec(0, 10, 0, 2), rec(1, 0, 1, 1), rec(2, 5, 1, 3), rec(3, 7, 3, 4)};
  EXPECT_EQ(live_records_at(records, 1), (std::vector<size_t>{0, 2}));  // record 1 is empty
  EXPECT_EQ(live_records_at(records, 3), (std::vector<size_t>{2, 3}));
  EXPECT_TRUE(live_records_at(records, 5).empty());
}

}  // namespace
}  // namespace microaot
