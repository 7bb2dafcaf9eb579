// Tests of the PAD, PADV2 and MIRROR_PAD handlers: the remap tables (fill entries, mirrored coordinates),
// the fill value per type, and the refusals TFLM makes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/binary_test_util.h"
#include "ops/remap_test_util.h"

namespace microaot {
namespace {

const int64_t F = kFillOffset;

Graph pad_graph(OpKind kind, DType type, std::vector<int32_t> in_shape, const std::vector<int32_t>& pads,
                std::vector<int32_t> out_shape) {
  Graph g;
  const int in = add_tensor(g, type, std::move(in_shape));
  const int rank = static_cast<int>(pads.size() / 2);
  const int paddings = add_int32_constant(g, pads, {rank, 2});
  const int out = add_tensor(g, type, std::move(out_shape));
  g.ops.push_back(Op{kind, 0, 1, {in, paddings}, {out}, NoOptions{}});
  return g;
}

TEST(PadHandler, TablesMarkThePaddingAndInt8FillsWithTheZeroPoint) {
  const KernelCall call = lower_for_test(pad_graph(OpKind::Pad, DType::kInt8, {2, 3}, {1, 0, 0, 2}, {3, 5}));
  EXPECT_EQ(call.info().function(), "microaot_remap");
  EXPECT_EQ(remap_tables(call), (std::vector<std::vector<int64_t>>{{F, 0, 3}, {0, 1, 2, F, F}}));
  EXPECT_EQ(param_arrays(call).at("fill"), (std::vector<int64_t>{-3}));
  EXPECT_EQ(param_text(call).at("element_bytes"), "1");
}

TEST(PadHandler, FloatFillsWithZeroAndStridesCountBytes) {
  const KernelCall call = lower_for_test(pad_graph(OpKind::Pad, DType::kFloat32, {2, 2}, {0, 1, 1, 0}, {3, 3}));
  EXPECT_EQ(remap_tables(call), (std::vector<std::vector<int64_t>>{{0, 8, F}, {F, 0, 4}}));
  EXPECT_EQ(param_text(call).at("element_bytes"), "4");
  EXPECT_EQ(param_arrays(call).at("fill"), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST(PadHandler, PadV2FillsWithItsConstantValue) {
  Graph g = pad_graph(OpKind::PadV2, DType::kInt16, {2}, {1, 1}, {4});
  const int value = add_tensor(g, DType::kInt16, {});
  g.tensors[value].is_constant = true;
  g.tensors[value].data = {0xfe, 0xff};  // -2
  g.ops[0].inputs.push_back(value);
  const KernelCall call = lower_for_test(g);
  EXPECT_EQ(param_arrays(call).at("fill"), (std::vector<int64_t>{-2, -1}));
}

TEST(PadHandler, RefusesWhatTflmRefuses) {
  EXPECT_NE(check_error(pad_graph(OpKind::Pad, DType::kInt8, {2, 3}, {1, 0, 0, 2}, {3, 4})).find("dimension 1"),
            std::string::npos);
  EXPECT_NE(check_error(pad_graph(OpKind::Pad, DType::kInt8, {1, 1, 1, 1, 1, 1}, std::vector<int32_t>(12, 0),
                                  {1, 1, 1, 1, 1, 1}))
                .find("rank above 5"),
            std::string::npos);
  Graph runtime_pads = pad_graph(OpKind::Pad, DType::kFloat32, {2}, {1, 1}, {4});
  runtime_pads.tensors[1].is_constant = false;
  EXPECT_NE(check_error(runtime_pads).find("paddings"), std::string::npos);
  Graph requantized = pad_graph(OpKind::PadV2, DType::kInt8, {2}, {1, 1}, {4});
  const int value = add_tensor(requantized, DType::kInt8, {});
  requantized.tensors[value].is_constant = true;
  requantized.tensors[value].data = {0};
  requantized.tensors[value].quant.zero_point = {5};
  requantized.ops[0].inputs.push_back(value);
  EXPECT_NE(check_error(requantized).find("quantized as the output"), std::string::npos);
}

Graph mirror_graph(bool reflect, const std::vector<int32_t>& pads, std::vector<int32_t> out_shape) {
  Graph g = pad_graph(OpKind::MirrorPad, DType::kFloat32, {4}, pads, std::move(out_shape));
  g.ops[0].options = MirrorPadOptions{reflect};
  return g;
}

TEST(MirrorPadHandler, ReflectSkipsTheEdgeAndSymmetricRepeatsIt) {
  // Input [4] = a b c d padded 2 / 2: reflect c b | a b c d | c b, symmetric b a | a b c d | d c.
  EXPECT_EQ(remap_tables(lower_for_test(mirror_graph(true, {2, 2}, {8}))),
            (std::vector<std::vector<int64_t>>{{8, 4, 0, 4, 8, 12, 8, 4}}));
  EXPECT_EQ(remap_tables(lower_for_test(mirror_graph(false, {2, 2}, {8}))),
            (std::vector<std::vector<int64_t>>{{4, 0, 0, 4, 8, 12, 12, 8}}));
}

TEST(MirrorPadHandler, TakesNoInt16AsTflm) {
  Graph g = mirror_graph(true, {1, 1}, {6});
  g.tensors[0].dtype = g.tensors[2].dtype = DType::kInt16;
  EXPECT_NE(check_error(g).find("output 0"), std::string::npos);
}

}  // namespace
}  // namespace microaot
