// The one deciding stage: handlers lower an int8 AVERAGE_POOL_2D or FULLY_CONNECTED to the generic stem on every
// target, and choose_variants alone picks the lanes' or the global kernel, or the packed one, only where the
// list specialises the stem for an instruction set the target runs (a DSP cpu, not built for size), and says
// why not elsewhere where the family has something to say.
#include "compile/choose_variants.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compile/compile_model.h"
#include "frontend/tflite_test_builder.h"
#include "kernels/select_kernels.h"
#include "ops/op_handler.h"

namespace microaot {
namespace {

using namespace tflite_test;

// 'in' [1,4,4,4] int8 -> AVERAGE_POOL_2D `window` x `window`, stride `window`, VALID -> 'out'.
ModelSpec pool_model(int window) {
  const int side = 4 / window;
  ModelSpec m;
  m.tensors = {activation("in", {1, 4, 4, 4}, 0.5f, -1), activation("out", {1, side, side, 4}, 0.5f, -1)};
  OpSpec pool = op(1, 1, {0}, {1});  // AVERAGE_POOL_2D
  pool.options_type = tflite::BuiltinOptions::Pool2DOptions;
  pool.options = [window](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreatePool2DOptions(fbb, tflite::Padding::VALID, window, window, window, window).Union();
  };
  m.ops.push_back(pool);
  m.inputs = {0};
  m.outputs = {1};
  return m;
}

Target target_named(const std::string& cpu, bool size = false) {
  Target target = parse_target(cpu);
  target.optimize_size = size;
  return target;
}

TEST(ChooseVariants, KnowsWhereTheListSpecialisesAStemForTheTarget) {
  const Target m4 = target_named("cortex-m4");
  for (const char* stem : {"average_pool_2d_s8", "add_s8", "sub_s8"}) {
    EXPECT_TRUE(has_specialisation_for(stem, m4)) << stem;
    EXPECT_FALSE(has_specialisation_for(stem, target_named("cortex-m4", /*size=*/true))) << stem;
    EXPECT_FALSE(has_specialisation_for(stem, target_named("cortex-m0plus"))) << stem;
  }
  // The palettised weights' kernels are portable: their families have a specialisation on every target.
  for (const char* stem : {"depthwise_conv_2d_s8", "conv_2d_s8", "fully_connected_s8"}) {
    EXPECT_TRUE(has_specialisation_for(stem, target_named("cortex-m4", /*size=*/true))) << stem;
    EXPECT_TRUE(has_specialisation_for(stem, target_named("cortex-m0plus"))) << stem;
  }
  for (const char* stem : {"average_pool_2d_s16", "average_pool_2d_s8_lanes", "max_pool_2d_s8", "add_s16"}) {
    EXPECT_FALSE(has_specialisation_for(stem, m4)) << stem;
  }
}

TEST(ChooseVariants, HandlersLowerToTheGenericStemAndTheStageChooses) {
  for (const int window : {2, 4}) {
    CompileOptions options;
    options.target = target_named("cortex-m4");
    const CompiledModel model = compile_model(build_model(pool_model(window)), options);
    ASSERT_EQ(model.calls.size(), 1u);
    const Op& op = model.graph.ops[0];
    std::vector<KernelCall> calls = {op_handler(op.kind).lower(model.graph, op)};
    EXPECT_EQ(calls[0].stem, "average_pool_2d_s8");
    EXPECT_EQ(calls[0].specialisation, "");
    choose_variants(model.graph, model.graph.ops, options.target, calls);
    const std::string chosen = window == 4 ? "average_pool_2d_s8_global" : "average_pool_2d_s8_lanes";
    EXPECT_EQ(calls[0].stem, chosen);
    EXPECT_EQ(model.calls[0].stem, chosen);  // compile_model runs the same stage
    EXPECT_NE(calls[0].specialisation.find("16-bit lanes"), std::string::npos) << calls[0].specialisation;
  }
}

TEST(ChooseVariants, KeepsTheGenericStemWhereTheTargetRunsNoSpecialisation) {
  for (const Target& target : {target_named("cortex-m4", /*size=*/true), target_named("cortex-m0plus")}) {
    CompileOptions options;
    options.target = target;
    const CompiledModel model = compile_model(build_model(pool_model(2)), options);
    ASSERT_EQ(model.calls.size(), 1u);
    EXPECT_EQ(model.calls[0].stem, "average_pool_2d_s8");
    EXPECT_EQ(model.calls[0].specialisation, "");
  }
}

// The packed FULLY_CONNECTED: chosen by the stage (over derived constants), not by lowering; on a cpu without
// the DSP extension or built for size the chooser says why not.
TEST(ChooseVariants, PicksThePackedProductAfterLowering) {
  const struct {
    Target target;
    const char *stem, *specialisation;
  } cases[] = {{target_named("cortex-m4"), "fully_connected_s8_packed_w16", "packed: 2 rows x 2 units per step"},
               {target_named("cortex-m4", /*size=*/true), "fully_connected_s8", "not packed: --optimize size"},
               {target_named("cortex-m0plus"), "fully_connected_s8", "not packed: the target has no DSP extension"},
               // Helium: the folded-bias Helium kernel (its bias a derived constant); +nomve keeps the DSP's.
               {target_named("cortex-m55"), "fully_connected_s8_mve", "helium: 1 row x 4 units per step"},
               {target_named("cortex-m55+nomve"), "fully_connected_s8_packed_w16", "packed: 2 rows x 2 units per step"}};
  for (const auto& c : cases) {
    CompileOptions options;
    options.target = c.target;
    const CompiledModel model = compile_model(build_model(small_packed_fc_model()), options);
    const Op& op = model.graph.ops[0];
    std::vector<KernelCall> calls = {op_handler(op.kind).lower(model.graph, op)};
    EXPECT_EQ(calls[0].stem, "fully_connected_s8");
    EXPECT_EQ(calls[0].specialisation, "");
    EXPECT_TRUE(calls[0].derived.empty());
    choose_variants(model.graph, model.graph.ops, c.target, calls);
    EXPECT_EQ(calls[0].stem, c.stem);
    EXPECT_EQ(calls[0].specialisation.rfind(c.specialisation, 0), 0u) << calls[0].specialisation;
    EXPECT_EQ(model.calls[0].stem, c.stem);
  }
}

// On a Helium target the FULLY_CONNECTED takes the folded-bias Helium kernel, which --optimize size takes away.
TEST(ChooseVariants, HeliumTargetsBuildTheMveSource) {
  const struct {
    Target target;
    const char* source;
  } cases[] = {{target_named("cortex-m55"), "kernels/mve/fully_connected_s8_mve.c"},
               {target_named("cortex-m85"), "kernels/mve/fully_connected_s8_mve.c"},
               {target_named("cortex-m55", /*size=*/true), "kernels/portable/fully_connected_s8.c"}};
  for (const auto& c : cases) {
    CompileOptions options;
    options.target = c.target;
    const CompiledModel model = compile_model(build_model(small_packed_fc_model()), options);
    ASSERT_EQ(model.calls.size(), 1u);
    EXPECT_EQ(model.calls[0].source, c.source) << c.target.cpu;
  }
}

// The Helium FULLY_CONNECTED's bias is a derived constant: bias + input_offset * each unit's weight sum (mod 2^32),
// the model's weights stay its second argument, and its input offset stays in the params (unread).
TEST(ChooseVariants, HeliumFoldsTheInputZeroPointIntoTheBiasAtCompileTime) {
  CompileOptions options;
  options.target = target_named("cortex-m55");
  const CompiledModel model = compile_model(build_model(small_packed_fc_model()), options);
  const Op& op = model.graph.ops[0];
  std::vector<KernelCall> calls = {op_handler(op.kind).lower(model.graph, op)};
  const int64_t input_offset = calls[0].params.find("input_offset")->integer;
  const int32_t units = static_cast<int32_t>(calls[0].params.find("output_depth")->integer);
  const int32_t depth = static_cast<int32_t>(calls[0].params.find("input_depth")->integer);
  choose_variants(model.graph, model.graph.ops, options.target, calls);
  ASSERT_EQ(calls[0].stem, "fully_connected_s8_mve");
  ASSERT_EQ(calls[0].derived.size(), 1u);
  EXPECT_EQ(calls[0].args[1], op.inputs[1]);
  EXPECT_EQ(calls[0].args[2], derived_arg(0));
  const std::vector<int8_t> w = constant_values<int8_t>(model.graph.tensor(op.inputs[1]));
  const std::vector<int32_t> bias = op.inputs.size() > 2 && op.inputs[2] != kNoTensor
                                        ? constant_values<int32_t>(model.graph.tensor(op.inputs[2]))
                                        : std::vector<int32_t>(static_cast<size_t>(units), 0);
  const std::vector<int32_t> folded = constant_values<int32_t>(calls[0].derived[0]);
  ASSERT_EQ(folded.size(), static_cast<size_t>(units));
  ASSERT_NE(input_offset, 0);  // else the test could not tell a fold from none
  for (int32_t u = 0; u < units; ++u) {
    int64_t sum = 0;
    for (int32_t k = 0; k < depth; ++k) sum += w[static_cast<size_t>(u * depth + k)];
    EXPECT_EQ(folded[static_cast<size_t>(u)], static_cast<int32_t>(static_cast<uint32_t>(bias[static_cast<size_t>(u)]) +
                                                                    static_cast<uint32_t>(sum * input_offset)))
        << u;
  }
}

// After the plan, the stage gives each call its planned variant and its kernel.
TEST(ChooseVariants, GivesEachCallThePlannedVariantAndItsKernel) {
  CompileOptions options;
  options.target = target_named("cortex-m4");
  CompiledModel model = compile_model(build_model(pool_model(2)), options);
  ASSERT_EQ(model.planned_variants.size(), 1u);
  EXPECT_EQ(model.calls[0].info().function(), "microaot_average_pool_2d_s8_lanes");
  model.planned_variants[0] = KernelVariant::kOverlap;
  choose_kernels(model);
  EXPECT_EQ(model.calls[0].info().function(), "microaot_average_pool_2d_s8_lanes_overlap");
}

}  // namespace
}  // namespace microaot
