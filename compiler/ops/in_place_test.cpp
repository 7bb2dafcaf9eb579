// In-place bounds (in_place_bounds.h) against a byte-level simulation of the kernels' access order, and
// the options the handlers offer. The simulation replays reads and stores on one address space for a given
// shift and reports whether a read ever sees a byte already overwritten; it shares no code with the bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ops/op_options.h"
#include "ops/in_place_bounds.h"
#include "ops/op_handler.h"

namespace microaot {
namespace {

// ---------------------------------------------------------------- row-wise simulation

// A window op on NHWC tensors: conv/depthwise/pool read, for output (y, x), the in-image taps
// (y * stride - pad + fy * dilation, x * stride_w - pad_w + fx * dilation_w), all channels of each.
struct Window {
  int batches, in_h, in_w, in_c, out_c, elem;  // elem: bytes per element (same for input and output)
  int filter_h, filter_w, stride_h, stride_w, dilation_h, dilation_w;
  bool same;
  int out_h = 0, out_w = 0, pad_h = 0, pad_w = 0;
};

void axis(bool same, int in, int filter, int stride, int dilation, int& out, int& pad) {
  const int extent = (filter - 1) * dilation + 1;
  out = same ? (in + stride - 1) / stride : (in - extent) / stride + 1;
  pad = same ? std::max(0, ((out - 1) * stride + extent - in) / 2) : 0;
}

Window finish(Window w) {
  axis(w.same, w.in_h, w.filter_h, w.stride_h, w.dilation_h, w.out_h, w.pad_h);
  axis(w.same, w.in_w, w.filter_w, w.stride_w, w.dilation_w, w.out_w, w.pad_w);
  return w;
}

int64_t input_row_bytes(const Window& w) { return int64_t{w.in_w} * w.in_c * w.elem; }
int64_t output_row_bytes(const Window& w) { return int64_t{w.out_w} * w.out_c * w.elem; }

RowWiseAccess access_of(const Window& w) {
  return {w.batches, w.in_h, w.out_h, input_row_bytes(w), output_row_bytes(w), w.stride_h, w.pad_h};
}

// The input byte offsets output row (b, y) reads, every byte of every tap.
std::vector<int64_t> row_reads(const Window& w, int b, int y) {
  std::vector<int64_t> bytes;
  for (int x = 0; x < w.out_w; ++x) {
    for (int fy = 0; fy < w.filter_h; ++fy) {
      const int iy = y * w.stride_h - w.pad_h + fy * w.dilation_h;
      if (iy < 0 || iy >= w.in_h) continue;
      for (int fx = 0; fx < w.filter_w; ++fx) {
        const int ix = x * w.stride_w - w.pad_w + fx * w.dilation_w;
        if (ix < 0 || ix >= w.in_w) continue;
        const int64_t start = ((int64_t{b} * w.in_h + iy) * w.in_w + ix) * w.in_c * w.elem;
        for (int64_t k = 0; k < int64_t{w.in_c} * w.elem; ++k) bytes.push_back(start + k);
      }
    }
  }
  return bytes;
}

// The overlap flavor: each row's reads, then the whole row stored.
bool row_wise_safe(const Window& w, int64_t shift) {
  const int64_t in_bytes = int64_t{w.batches} * w.in_h * input_row_bytes(w);
  const int64_t out_bytes = int64_t{w.batches} * w.out_h * output_row_bytes(w);
  const int64_t in0 = std::max<int64_t>(0, -shift);
  const int64_t out0 = in0 + shift;
  std::vector<bool> stored(std::max(in0 + in_bytes, out0 + out_bytes), false);
  for (int b = 0; b < w.batches; ++b) {
    for (int y = 0; y < w.out_h; ++y) {
      for (int64_t byte : row_reads(w, b, y)) {
        if (stored[in0 + byte]) return false;
      }
      const int64_t row = (int64_t{b} * w.out_h + y) * output_row_bytes(w);
      for (int64_t k = 0; k < output_row_bytes(w); ++k) stored[out0 + row + k] = true;
    }
  }
  return true;
}

Window random_window(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (;;) {
    Window w{};
    w.batches = pick(1, 2);
    w.in_h = pick(1, 9), w.in_w = pick(1, 6), w.in_c = pick(1, 4), w.out_c = pick(1, 8);
    w.elem = pick(0, 1) ? 4 : 1;
    w.filter_h = pick(0, 1) ? 1 : 3, w.filter_w = pick(0, 1) ? 1 : 3;
    w.stride_h = pick(1, 2), w.stride_w = pick(1, 2);
    w.dilation_h = pick(1, 2), w.dilation_w = pick(1, 2);
    w.same = pick(0, 1) == 1;
    w = finish(w);
    const bool fits = w.in_h > (w.filter_h - 1) * w.dilation_h && w.in_w > (w.filter_w - 1) * w.dilation_w;
    if (w.same || fits) return w;
  }
}

TEST(RowWiseMaxShift, HandComputedCases) {
  // 3x3 depthwise, stride 1, SAME (pad 1), rows of 8 bytes in and out: after row y the reads resume at
  // input row y, so the output must start one row before the input.
  EXPECT_EQ(row_wise_max_shift({1, 4, 4, 8, 8, 1, 1}), -8);
  // 1x1 pointwise with equal rows: exactly in place.
  EXPECT_EQ(row_wise_max_shift({2, 5, 5, 12, 12, 1, 0}), 0);
  // 1x1 doubling the channels: the last stored row but one must end where the last input row begins.
  EXPECT_EQ(row_wise_max_shift({1, 3, 3, 4, 8, 1, 0}), 2 * 4 - 2 * 8);
  // 1x1 stride 2 halving the rows (VALID): row y stored after reading input row 2y; reads resume at 2y + 2.
  EXPECT_EQ(row_wise_max_shift({1, 4, 2, 4, 4, 2, 0}), 2 * 4 - 4);
  // A single output row: no constraint (the input's size).
  EXPECT_EQ(row_wise_max_shift({1, 3, 1, 4, 4, 1, 1}), 12);
}

TEST(RowWiseMaxShift, SafeAtTheBoundAndBelowBySimulation) {
  std::mt19937 rng(7);
  int unsafe_one_element_above = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Window w = random_window(rng);
    const int64_t bound = row_wise_max_shift(access_of(w));
    SCOPED_TRACE("trial " + std::to_string(trial) + " bound " + std::to_string(bound));
    for (int64_t k : {0, 1, 2, 7}) EXPECT_TRUE(row_wise_safe(w, bound - k * w.elem));
    if (!row_wise_safe(w, bound + w.elem)) ++unsafe_one_element_above;
    // VALID padding: the next row's first read is exactly the row the bound assumes, so the bound is tight.
    if (!w.same && w.batches * w.out_h > 1) {
      EXPECT_FALSE(row_wise_safe(w, bound + 1));
    }
  }
  EXPECT_GT(unsafe_one_element_above, 300);
}

// ---------------------------------------------------------------- element-wise simulation

bool element_wise_safe(int64_t n, int64_t in_size, int64_t out_size, int64_t shift) {
  const int64_t in0 = std::max<int64_t>(0, -shift);
  const int64_t out0 = in0 + shift;
  std::vector<bool> stored(std::max(in0 + n * in_size, out0 + n * out_size), false);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < in_size; ++k) {
      if (stored[in0 + i * in_size + k]) return false;
    }
    for (int64_t k = 0; k < out_size; ++k) stored[out0 + i * out_size + k] = true;
  }
  return true;
}

TEST(ElementWiseMaxShift, ExactBySimulation) {
  EXPECT_EQ(element_wise_max_shift(10, 1, 1), 0);
  EXPECT_EQ(element_wise_max_shift(10, 4, 1), 3);
  EXPECT_EQ(element_wise_max_shift(10, 1, 4), -27);
  EXPECT_EQ(element_wise_max_shift(10, 2, 1), 1);
  EXPECT_EQ(element_wise_max_shift(1, 1, 4), 1);
  for (int64_t n : {1, 2, 3, 17}) {
    for (int64_t si : {1, 2, 4}) {
      for (int64_t so : {1, 2, 4}) {
        const int64_t bound = element_wise_max_shift(n, si, so);
        SCOPED_TRACE(std::to_string(n) + " " + std::to_string(si) + " " + std::to_string(so));
        for (int64_t k = 0; k < 3 * so; ++k) EXPECT_TRUE(element_wise_safe(n, si, so, bound - k));
        if (n > 1) {
          EXPECT_FALSE(element_wise_safe(n, si, so, bound + 1));
        }
      }
    }
  }
}

// ---------------------------------------------------------------- handler options

int add_tensor(Graph& g, DType type, std::vector<int32_t> shape) {
  Tensor t;
  t.name = "t" + std::to_string(g.tensors.size());
  t.dtype = type;
  t.shape = std::move(shape);
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

std::vector<InPlaceOption> options_of(const Graph& g) {
  const OpHandler& h = op_handler(g.ops[0].kind);
  EXPECT_NE(h.in_place, nullptr);
  return h.in_place == nullptr ? std::vector<InPlaceOption>{} : h.in_place(g, g.ops[0]);
}

TEST(InPlaceOptions, DepthwiseConvUsesTheRowFlavor) {
  Graph g;
  const int in = add_tensor(g, DType::kInt8, {1, 6, 5, 3});
  const int w = add_tensor(g, DType::kInt8, {1, 3, 3, 6});
  const int out = add_tensor(g, DType::kInt8, {1, 6, 5, 6});
  g.ops.push_back(Op{OpKind::DepthwiseConv2D,
                     0,
                     3,
                     {in, w},
                     {out},
                     DepthwiseConv2DOptions{Padding::kSame, 1, 1, 2, 1, 2, Activation::kNone}});
  const std::vector<InPlaceOption> options = options_of(g);
  ASSERT_EQ(options.size(), 1u);
  EXPECT_EQ(options[0].input, 0);
  EXPECT_EQ(options[0].output, 0);
  EXPECT_EQ(options[0].variant, KernelVariant::kOverlap);
  EXPECT_EQ(options[0].scratch_bytes, 5 * 6);
  EXPECT_EQ(options[0].max_shift, row_wise_max_shift({1, 6, 6, 15, 30, 1, 1}));
}

TEST(InPlaceOptions, FloatConvStride2) {
  Graph g;
  const int in = add_tensor(g, DType::kFloat32, {2, 8, 4, 2});
  const int w = add_tensor(g, DType::kFloat32, {3, 1, 1, 2});
  const int out = add_tensor(g, DType::kFloat32, {2, 4, 2, 3});
  g.ops.push_back(
      Op{OpKind::Conv2D, 0, 1, {in, w}, {out}, Conv2DOptions{Padding::kValid, 2, 2, 1, 1, Activation::kNone}});
  const std::vector<InPlaceOption> options = options_of(g);
  ASSERT_EQ(options.size(), 1u);
  EXPECT_EQ(options[0].variant, KernelVariant::kOverlap);
  EXPECT_EQ(options[0].scratch_bytes, 2 * 3 * 4);
  EXPECT_EQ(options[0].max_shift, row_wise_max_shift({2, 8, 4, 32, 24, 2, 0}));
}

TEST(InPlaceOptions, PoolsUseTheirRowFlavors) {
  for (OpKind kind : {OpKind::AveragePool2D, OpKind::MaxPool2D}) {
    Graph g;
    const int in = add_tensor(g, DType::kInt8, {1, 7, 7, 4});
    const int out = add_tensor(g, DType::kInt8, {1, 4, 4, 4});
    Pool2DOptions o;
    o.padding = Padding::kSame;
    o.filter_h = o.filter_w = 3;
    o.stride_h = o.stride_w = 2;
    g.ops.push_back(Op{kind, 0, 1, {in}, {out}, o});
    const std::vector<InPlaceOption> options = options_of(g);
    ASSERT_EQ(options.size(), 1u);
    EXPECT_EQ(options[0].variant, KernelVariant::kOverlap);
    EXPECT_EQ(options[0].scratch_bytes, 16);
    // SAME 7 -> 4 with a 3x3 window and stride 2: total padding 2, one row before.
    EXPECT_EQ(options[0].max_shift, row_wise_max_shift({1, 7, 4, 28, 16, 2, 1}));
  }
}

TEST(InPlaceOptions, AddOffersOnlyInputsThatAreNotBroadcast) {
  Graph g;
  const int a = add_tensor(g, DType::kInt8, {1, 4, 4, 8});
  const int b = add_tensor(g, DType::kInt8, {8});
  const int out = add_tensor(g, DType::kInt8, {1, 4, 4, 8});
  g.ops.push_back(Op{OpKind::Add, 0, 1, {a, b}, {out}, FusedActivationOptions{Activation::kNone}});
  std::vector<InPlaceOption> options = options_of(g);
  ASSERT_EQ(options.size(), 1u);
  EXPECT_EQ(options[0].input, 0);
  EXPECT_EQ(options[0].max_shift, 0);
  EXPECT_EQ(options[0].variant, KernelVariant::kPlain);
  EXPECT_EQ(options[0].scratch_bytes, 0);
  g.ops[0].inputs = {b, a};
  options = options_of(g);
  ASSERT_EQ(options.size(), 1u);
  EXPECT_EQ(options[0].input, 1);
  g.ops[0].inputs = {a, a};
  EXPECT_EQ(options_of(g).size(), 2u);
}

TEST(InPlaceOptions, ConversionsUseTheElementRule) {
  struct Case {
    OpKind kind;
    DType in, out;
    int64_t expected;
  };
  const Case cases[] = {{OpKind::Quantize, DType::kFloat32, DType::kInt8, 3},
                        {OpKind::Quantize, DType::kInt8, DType::kInt16, -(30 - 1)},
                        {OpKind::Quantize, DType::kInt8, DType::kInt8, 0},
                        {OpKind::Dequantize, DType::kInt8, DType::kFloat32, -3 * (30 - 1)},
                        {OpKind::Softmax, DType::kInt8, DType::kInt16, -(30 - 1)},
                        {OpKind::Softmax, DType::kFloat32, DType::kFloat32, 0}};
  for (const Case& c : cases) {
    Graph g;
    const int in = add_tensor(g, c.in, {1, 5, 6});
    const int out = add_tensor(g, c.out, {1, 5, 6});
    g.ops.push_back(Op{c.kind, 0, 1, {in}, {out}, NoOptions{}});
    if (c.kind == OpKind::Softmax) g.ops[0].options = SoftmaxOptions{};
    const std::vector<InPlaceOption> result = options_of(g);
    ASSERT_EQ(result.size(), 1u);
    EXPECT_EQ(result[0].max_shift, c.expected);
    EXPECT_EQ(result[0].variant, KernelVariant::kPlain);
    EXPECT_EQ(result[0].scratch_bytes, 0);
  }
}

TEST(InPlaceOptions, FullyConnectedHasNone) { EXPECT_EQ(op_handler(OpKind::FullyConnected).in_place, nullptr); }

}  // namespace
}  // namespace microaot
