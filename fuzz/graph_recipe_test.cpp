// Focused recipes (graph_recipe.h): one operator of the asked kind per model, and on a DSP target they reach
// the specialised stems that plain random models seldom reach, which the differential harness's focused cases
// rely on (tests/e2e/differential_qemu_test.cpp).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "compile/compile_model.h"
#include "graph_recipe.h"
#include "microaot/kernels/packed.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot::fuzz {
namespace {

// The calls of the compiled models of `tries` random recipes focused on `op` on the Cortex-M4; every model that
// compiles has that one operator.
std::vector<KernelCall> calls_reached(const std::string& op, int tries) {
  const tflite_test::ListedOp* focus = listed_op_named(op);
  EXPECT_NE(focus, nullptr) << op;
  if (focus == nullptr) return {};
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  std::mt19937 rng(7);
  std::vector<KernelCall> calls;
  for (int i = 0; i < tries; ++i) {
    std::vector<uint8_t> recipe(4096);
    for (uint8_t& b : recipe) b = static_cast<uint8_t>(rng());
    try {
      const CompiledModel model = compile_model(focused_model_from_recipe(*focus, recipe.data(), recipe.size()),
                                                options);
      EXPECT_EQ(model.graph.ops.size(), 1u);
      calls.insert(calls.end(), model.calls.begin(), model.calls.end());
    } catch (const CompileError&) {
    }
  }
  return calls;
}

// Their stems.
std::set<std::string> stems_reached(const std::string& op, int tries) {
  std::set<std::string> stems;
  for (const KernelCall& call : calls_reached(op, tries)) stems.insert(call.stem);
  return stems;
}

TEST(FocusedRecipes, DepthwiseModelsReachTheRingAndTheMultiplierKernel) {
  const std::set<std::string> stems = stems_reached("DEPTHWISE_CONV_2D", 300);
  // the ring, in its speed form (the groups' constants at compile time: cortex-m4's default --optimize speed)
  EXPECT_EQ(stems.count("depthwise_conv_2d_s8_ring_w16"), 1u);
  // the depth-multiplier layers, within the strip's bounds all: the in-image taps of depthwise_conv_2d_s8_multiplier
  // (a left shift, a filter too wide for the strip) are micro_speech's (tests/e2e/cortex_m_test.cpp)
  EXPECT_EQ(stems.count("depthwise_conv_2d_s8_multiplier_strip"), 1u);
  EXPECT_EQ(stems.count("depthwise_conv_2d_s8"), 1u);  // and the full kernel's other layers
}

TEST(FocusedRecipes, AveragePoolModelsReachTheLanesAndTheGlobalKernel) {
  const std::set<std::string> stems = stems_reached("AVERAGE_POOL_2D", 300);
  EXPECT_EQ(stems.count("average_pool_2d_s8_lanes"), 1u);
  EXPECT_EQ(stems.count("average_pool_2d_s8_global"), 1u);
}

// BATCH_MATMUL's recipe (an RHS of the input's batch over its depth, adj_x and adj_y drawn) compiles to the DSP
// kernel, which random models' second operands of the input's own shape seldom reach.
TEST(FocusedRecipes, BatchMatmulModelsReachTheDotKernel) {
  EXPECT_EQ(stems_reached("BATCH_MATMUL", 100).count("batch_matmul_s8_dot"), 1u);
}

// The packed TRANSPOSE_CONV both ways: phase by phase, and the phases as one convolution (a filter of whole strides).
TEST(FocusedRecipes, TransposeConvModelsReachThePackedPhasesBothWays) {
  int separate = 0, unified = 0;
  for (const KernelCall& call : calls_reached("TRANSPOSE_CONV", 300)) {
    if (call.stem != "transpose_conv_s8_packed_w16") continue;
    separate += call.specialisation.find("phases, each a convolution") != std::string::npos;
    unified += call.specialisation.find("phases as one convolution") != std::string::npos;
  }
  EXPECT_GT(separate, 0);
  EXPECT_GT(unified, 0);
}

// Wide shape `shape` of `focus` from a random recipe, compiled for the Cortex-M4.
CompiledModel compile_wide(const tflite_test::ListedOp& focus, int shape, std::mt19937& rng) {
  CompileOptions options;
  options.target = parse_target("cortex-m4");
  std::vector<uint8_t> recipe(65536);
  for (uint8_t& b : recipe) b = static_cast<uint8_t>(rng());
  return compile_model(wide_model_from_recipe(focus, shape, recipe.data(), recipe.size()), options);
}

// Every wide shape (the no-cliff cases of the differential harness) compiles on the Cortex-M4 to its packed
// kernel, reduced in chunks: a window or depth beyond MICROAOT_PACKED_CHUNK (640), some beyond 2,048.
TEST(WideRecipes, EveryShapeTakesThePackedKernelBeyondOneChunk) {
  std::mt19937 rng(11);
  for (const char* op : {"CONV_2D", "FULLY_CONNECTED"}) {
    const tflite_test::ListedOp* focus = listed_op_named(op);
    ASSERT_NE(focus, nullptr);
    ASSERT_GT(wide_shape_count(*focus), 3);
    int beyond_2048 = 0;
    for (int shape = 0; shape < wide_shape_count(*focus); ++shape) {
      bool compiled = false;
      for (int attempt = 0; attempt < 50 && !compiled; ++attempt) {  // a recipe now and then breaks the model
        try {
          const CompiledModel model = compile_wide(*focus, shape, rng);
          ASSERT_EQ(model.calls.size(), 1u);
          const KernelCall& call = model.calls[0];
          if (call.specialisation.rfind("packed", 0) != 0) continue;  // outside the output step's proof
          compiled = true;
          EXPECT_NE(call.stem.find("_packed"), std::string::npos) << op << " shape " << shape;
          const Tensor& w = model.graph.tensor(model.graph.ops[0].inputs[1]);
          const int64_t reduction = w.num_elements() / w.shape[0];
          EXPECT_GT(reduction, MICROAOT_PACKED_CHUNK) << op << " shape " << shape;
          beyond_2048 += reduction > 2048;
        } catch (const CompileError&) {
        }
      }
      EXPECT_TRUE(compiled) << op << " shape " << shape;
    }
    EXPECT_GE(beyond_2048, 1) << op;
  }
  EXPECT_EQ(wide_shape_count(*listed_op_named("ADD")), 0);
}

// The recurrent operators' own recipes (recurrent_recipe.cpp): models the compiler takes, on the packed kernels.
TEST(FocusedRecipes, RecurrentModelsReachThePackedKernels) {
  EXPECT_EQ(stems_reached("UNIDIRECTIONAL_SEQUENCE_LSTM", 20),
            (std::set<std::string>{"unidirectional_sequence_lstm_s8_packed_w16"}));
  EXPECT_EQ(stems_reached("SVDF", 40), (std::set<std::string>{"svdf_ring_s8_s8_packed", "svdf_ring_s8_s16_packed"}));
}

// The recurrent layers' wide shapes: inputs a step beyond one chunk, on the packed kernels, which reduce each row
// in one pass (their weights packed whole, not chunk by chunk).
TEST(WideRecipes, RecurrentShapesTakeThePackedKernelsBeyondOneChunk) {
  std::mt19937 rng(12);
  for (const char* op : {"UNIDIRECTIONAL_SEQUENCE_LSTM", "SVDF"}) {
    const tflite_test::ListedOp* focus = listed_op_named(op);
    ASSERT_NE(focus, nullptr);
    ASSERT_GE(wide_shape_count(*focus), 2);
    for (int shape = 0; shape < wide_shape_count(*focus); ++shape) {
      const CompiledModel model = compile_wide(*focus, shape, rng);
      ASSERT_EQ(model.calls.size(), 1u);
      EXPECT_NE(model.calls[0].stem.find("_packed"), std::string::npos) << op << " shape " << shape;
      const Tensor& w = model.graph.tensor(model.graph.ops[0].inputs[1]);
      EXPECT_GT(w.shape[1], MICROAOT_PACKED_CHUNK) << op << " shape " << shape;
    }
  }
}

TEST(FocusedRecipes, AnUnknownOperatorHasNoLine) { EXPECT_EQ(listed_op_named("NOT_AN_OPERATOR"), nullptr); }

}  // namespace
}  // namespace microaot::fuzz
