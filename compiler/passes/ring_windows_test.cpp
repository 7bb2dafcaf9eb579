// ring_windows: a variable's frame window (join the new frame, drop the oldest, assign back, in either
// order) becomes a mirrored ring with a position; anything else keeps its copies.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ops/op_options.h"
#include "passes/pass.h"

namespace microaot {
namespace {

constexpr int32_t kFrame = 2;  // bytes of one frame (int8 [1, 1, 1, 2])

int add_tensor(Graph& g, const std::string& name, std::vector<int32_t> shape, DType type = DType::kInt8) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = std::move(shape);
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

int add_ints(Graph& g, const std::string& name, const std::vector<int32_t>& values) {
  const int id = add_tensor(g, name, {static_cast<int32_t>(values.size())}, DType::kInt32);
  Tensor& t = g.tensor(id);
  t.is_constant = true;
  t.data.resize(values.size() * 4);
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return id;
}

void add_op(Graph& g, OpKind kind, std::vector<int> inputs, std::vector<int> outputs, OpOptions options = NoOptions{}) {
  g.ops.push_back(Op{kind, static_cast<int>(g.ops.size()), 1, std::move(inputs), std::move(outputs), options});
}

// STRIDED_SLICE of `input` ([1, frames, 1, kFrame]) from frame 1 to its end.
int drop_first_frame(Graph& g, int input, int frames) {
  const int out = add_tensor(g, "rest", {1, frames - 1, 1, kFrame});
  add_op(g, OpKind::StridedSlice,
         {input, add_ints(g, "begin", {0, 1, 0, 0}), add_ints(g, "end", {1, frames, 1, kFrame}),
          add_ints(g, "strides", {1, 1, 1, 1})},
         {out}, StridedSliceOptions{});
  return out;
}

int join(Graph& g, int old_frames, int frame, int frames, int axis = 1) {
  const int out = add_tensor(g, "window", {1, frames, 1, kFrame});
  add_op(g, OpKind::Concatenation, {old_frames, frame}, {out}, ConcatenationOptions{axis, Activation::kNone});
  return out;
}

struct Streaming {
  Graph g;
  int variable = -1, frame = -1, window = -1, result = -1;
};

// variable [1, kept, 1, kFrame] holding bytes 1, 2, 3, ...; each step joins `frame` to it, a MEAN reads the
// window, and what is kept goes back to the variable. `join_first`: the window is the variable plus the
// frame (kept + 1 frames), else the variable minus its oldest frame plus the frame (kept frames).
Streaming streaming(bool join_first, int kept = 4) {
  Streaming s;
  Graph& g = s.g;
  s.frame = add_tensor(g, "frame", {1, 1, 1, kFrame});
  s.variable = add_tensor(g, "state", {1, kept, 1, kFrame});
  Tensor& v = g.tensor(s.variable);
  v.is_persistent = true;
  for (int i = 0; i < kept * kFrame; ++i) v.data.push_back(static_cast<uint8_t>(i + 1));
  const int copy = add_tensor(g, "copy", {1, kept, 1, kFrame});
  add_op(g, OpKind::ReadVariable, {s.variable}, {copy});
  int assigned = -1;
  if (join_first) {
    s.window = join(g, copy, s.frame, kept + 1);
    assigned = drop_first_frame(g, s.window, kept + 1);
  } else {
    s.window = join(g, drop_first_frame(g, copy, kept), s.frame, kept);
    assigned = s.window;
  }
  s.result = add_tensor(g, "mean", {1, kFrame});
  add_op(g, OpKind::Mean, {s.window}, {s.result});
  add_op(g, OpKind::AssignVariable, {assigned}, {s.variable});
  g.inputs = {s.frame};
  g.outputs = {s.result};
  return s;
}

bool run(Graph& g, bool allowed = true) {
  PassContext ctx;
  ctx.ring_windows = allowed;
  return ring_windows(g, ctx);
}

// The ring's storage, frame by frame: {first byte of each slot}; 0 where a slot holds nothing yet.
std::vector<int> first_bytes(const Tensor& ring) {
  std::vector<int> firsts;
  for (size_t i = 0; i < ring.data.size(); i += kFrame) firsts.push_back(ring.data[i]);
  return firsts;
}

void expect_ring(const Streaming& s, int slots) {
  const Graph& g = s.g;
  ASSERT_EQ(g.ops.size(), 2u);
  const Op& push = g.ops[0];
  EXPECT_EQ(push.kind, OpKind::AssignVariable);
  ASSERT_NE(options_if<RingPushOptions>(push), nullptr);
  EXPECT_EQ(options_if<RingPushOptions>(push)->slots, slots);
  EXPECT_EQ(options_if<RingPushOptions>(push)->unit_bytes, kFrame);
  EXPECT_EQ(push.inputs, std::vector<int>{s.frame});
  ASSERT_EQ(push.outputs.size(), 2u);
  EXPECT_EQ(push.outputs[0], s.variable);
  const Tensor& position = g.tensor(push.outputs[1]);
  EXPECT_TRUE(position.is_persistent);
  EXPECT_EQ(position.data, std::vector<uint8_t>(4, 0));
  EXPECT_EQ(g.ops[1].kind, OpKind::Mean);
  const Tensor& window = g.tensor(s.window);
  EXPECT_EQ(window.alias_of, s.variable);
  EXPECT_EQ(window.ring.position, push.outputs[1]);
  EXPECT_EQ(window.ring.slots, slots);
  EXPECT_EQ(g.tensor(s.variable).byte_size(), (2 * slots - 1) * kFrame);
}

TEST(RingWindows, JoinThenSliceBecomesARingOfTheWholeWindow) {
  Streaming s = streaming(true);
  ASSERT_TRUE(run(s.g));
  expect_ring(s, 5);
  // Slots 1..4 hold the 4 kept frames (first bytes 1, 3, 5, 7), slots 6..8 mirror slots 1..3.
  EXPECT_EQ(first_bytes(s.g.tensor(s.variable)), (std::vector<int>{0, 1, 3, 5, 7, 0, 1, 3, 5}));
}

TEST(RingWindows, SliceThenJoinDropsTheOldestFrameFromTheRing) {
  Streaming s = streaming(false);
  ASSERT_TRUE(run(s.g));
  expect_ring(s, 4);
  // The oldest frame (first byte 1) leaves the window at the first step: the ring keeps frames 2..4.
  EXPECT_EQ(first_bytes(s.g.tensor(s.variable)), (std::vector<int>{0, 3, 5, 7, 0, 3, 5}));
}

TEST(RingWindows, NotForTheGraphExecutor) {
  Streaming s = streaming(true);
  EXPECT_FALSE(run(s.g, false));
  EXPECT_EQ(s.g.ops.size(), 5u);
}

TEST(RingWindows, AWindowThatIsAGraphOutputStaysACopy) {
  Streaming s = streaming(true);
  s.g.outputs.push_back(s.window);
  EXPECT_FALSE(run(s.g));
}

TEST(RingWindows, AVariableReadTwiceStaysACopy) {
  Streaming s = streaming(true);
  const int again = add_tensor(s.g, "again", {1, 4, 1, kFrame});
  add_op(s.g, OpKind::ReadVariable, {s.variable}, {again});
  s.g.outputs.push_back(again);
  EXPECT_FALSE(run(s.g));
}

TEST(RingWindows, AJoinOfInterleavedBytesStaysACopy) {
  Streaming s = streaming(true);
  // Joined along the last axis, the frames interleave: no unit of the window is one run of bytes.
  for (Op& op : s.g.ops) {
    if (op.kind == OpKind::Concatenation) op.options = ConcatenationOptions{3, Activation::kNone};
  }
  EXPECT_FALSE(run(s.g));
}

TEST(RingWindows, AnAssignOfSomethingElseStaysACopy) {
  Streaming s = streaming(true);
  s.g.ops.back().inputs = {s.window};  // the whole window back: not the kept frames
  EXPECT_FALSE(run(s.g));
}

TEST(RingWindows, AJoinOfTheKeptFramesWithThemselvesStaysACopy) {
  Streaming s = streaming(false, 2);  // one frame kept: joined with itself, it has the window's size
  for (Op& op : s.g.ops) {
    if (op.kind == OpKind::Concatenation) op.inputs[1] = op.inputs[0];  // its unit would leave with the slice
  }
  EXPECT_FALSE(run(s.g));
}

TEST(RingWindows, AViewOfTheWindowOrOfTheReadCopyStaysACopy) {
  for (const bool of_window : {true, false}) {
    Streaming s = streaming(true);
    // An aliased RESHAPE: its readers would read the storage's start, not the window, or a dropped copy.
    const int view = add_tensor(s.g, "view", {1, of_window ? 10 : 8});
    s.g.tensor(view).alias_of = of_window ? s.window : s.g.ops[0].outputs[0];
    const int sum = add_tensor(s.g, "sum", {1, kFrame});
    s.g.ops.insert(s.g.ops.begin() + 2, Op{OpKind::Mean, 9, 1, {view}, {sum}, NoOptions{}});
    s.g.outputs.push_back(sum);
    EXPECT_FALSE(run(s.g)) << (of_window ? "window" : "read copy");
  }
}

}  // namespace
}  // namespace microaot
