// Option checking shared by the subcommands: targets in every accepted spelling, byte sizes, pools, and
// usage errors (UsageError) for everything else.
#include <gtest/gtest.h>

#include <functional>

#include "driver/commands.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

CompileCommandOptions resolved(const std::string& target, const std::string& target_c_mcpu = "") {
  CompileCommandOptions o;
  o.model_path = "m.tflite";
  o.target = target;
  o.target_c_mcpu = target_c_mcpu;
  resolve_compile_options(o);
  return o;
}

TEST(CompileOptions, TargetSpellings) {
  const std::pair<const char*, const char*> cases[] = {
      {"", ""},          {"c", ""},          {"host", ""},          {"cortex-m4", "cortex-m4"},
      {"c -mcpu=cortex-m7", "cortex-m7"},    {"cmsis-nn, c", ""},  {"cmsis-nn,c -mcpu=cortex-m55", "cortex-m55"},
      {"cmsis-nn , c -mcpu=cortex-m4", "cortex-m4"}};
  for (const auto& [target, cpu] : cases) {
    const CompileCommandOptions o = resolved(target);
    EXPECT_EQ(o.compile.target.cpu, cpu) << target;
    EXPECT_EQ(o.compile.target.fast_kernels_requested, std::string(target).rfind("cmsis-nn", 0) == 0) << target;
  }
}

TEST(CompileOptions, TargetCMcpuIsTheSameAsMcpuInTheTarget) {
  EXPECT_EQ(resolved("", "cortex-m33").compile.target.cpu, "cortex-m33");
  EXPECT_EQ(resolved("c", "cortex-m33").compile.target.cpu, "cortex-m33");
  const CompileCommandOptions fast = resolved("cmsis-nn, c", "cortex-m55");
  EXPECT_EQ(fast.compile.target.cpu, "cortex-m55");
  EXPECT_TRUE(fast.compile.target.fast_kernels_requested);
  EXPECT_EQ(resolved("c -mcpu=cortex-m33+nodsp", "cortex-m33").compile.target.dsp, false);
  EXPECT_THROW(resolved("c -mcpu=cortex-m4", "cortex-m7"), UsageError);
  EXPECT_THROW(resolved("", "pentium"), UsageError);
}

TEST(CompileOptions, OptimizeSpeedByDefaultOrSize) {
  EXPECT_FALSE(resolved("cortex-m4").compile.target.optimize_size);
  CompileCommandOptions o;
  o.model_path = "m.tflite";
  o.target = "cortex-m4";
  o.optimize = "size";
  resolve_compile_options(o);
  EXPECT_TRUE(o.compile.target.optimize_size);
  EXPECT_TRUE(o.compile.target.dsp);  // the target stays what it is; only the kernels' choice changes
  EXPECT_FALSE(o.compile.target.packed_int16_weights());
}

TEST(CompileOptions, OptimizeBalancedKeepsTheDspKernelsWithInt8PackedWeights) {
  EXPECT_TRUE(resolved("cortex-m4").compile.target.packed_int16_weights());
  CompileCommandOptions o;
  o.model_path = "m.tflite";
  o.target = "cortex-m4";
  o.optimize = "balanced";
  resolve_compile_options(o);
  EXPECT_TRUE(o.compile.target.kernels_use_dsp());
  EXPECT_FALSE(o.compile.target.packed_int16_weights());
  EXPECT_STREQ(optimize_name(o.compile.target), "balanced");
  EXPECT_STREQ(optimize_c_flag(o.compile.target), "-O2");
}

TEST(CompileOptions, BadTargetsAreUsageErrors) {
  for (const char* target : {"cmsis-nn", "cmsis-nn c", "c -mcpu=pentium", "c foo", "cortex-m99"}) {
    EXPECT_THROW(resolved(target), UsageError) << target;
  }
}

TEST(CompileOptions, ByteSizesAndPools) {
  CompileCommandOptions o;
  o.model_path = "m.tflite";
  o.ram_budget = "8K";
  o.alignment = "32";
  o.pools = {"sram:64KiB:8", "dtcm:1M"};
  resolve_compile_options(o);
  EXPECT_EQ(o.compile.ram_budget, 8192);
  EXPECT_EQ(o.compile.alignment, 32);
  ASSERT_EQ(o.compile.pools.size(), 2u);
  EXPECT_EQ(o.compile.pools[0].size, 65536);
  EXPECT_EQ(o.compile.pools[0].alignment, 8);
  EXPECT_EQ(o.compile.pools[1].size, 1048576);
  resolve_compile_options(o);  // again (bench's host run): the pools are not added twice
  EXPECT_EQ(o.compile.pools.size(), 2u);
}

TEST(CompileOptions, BadValuesAreUsageErrors) {
  const std::vector<std::function<void(CompileCommandOptions&)>> mistakes = {
      [](CompileCommandOptions& o) { o.ram_budget = "-5"; },
      [](CompileCommandOptions& o) { o.ram_budget = "0"; },
      [](CompileCommandOptions& o) { o.ram_budget = "8KB"; },
      [](CompileCommandOptions& o) { o.ram_budget = "3G"; },
      [](CompileCommandOptions& o) { o.alignment = "24"; },
      [](CompileCommandOptions& o) { o.alignment = "0"; },
      [](CompileCommandOptions& o) { o.pools = {"sram:0"}; },
      [](CompileCommandOptions& o) { o.pools = {"sram:4K:3"}; },
      [](CompileCommandOptions& o) { o.pools = {"sram"}; },
      [](CompileCommandOptions& o) { o.pools = {"9x:4K"}; },
      [](CompileCommandOptions& o) { o.pools = {"a:4K", "a:8K"}; },
      [](CompileCommandOptions& o) { o.io_in_arena = "maybe"; },
      [](CompileCommandOptions& o) { o.compile.module_name = "9lives"; },
      [](CompileCommandOptions& o) { o.compile.planner = "magic"; },
      [](CompileCommandOptions& o) { o.runtime = "graph"; },
      [](CompileCommandOptions& o) { o.optimize = "fast"; },
  };
  for (size_t i = 0; i < mistakes.size(); ++i) {
    CompileCommandOptions o;
    o.model_path = "m.tflite";
    mistakes[i](o);
    EXPECT_THROW(resolve_compile_options(o), UsageError) << "mistake " << i;
  }
}

// --compress-weights: lossless by default at size and balanced (on a DSP target only through the DSP palette
// kernel: compress_fast_only), off at speed; K bits 1..7; anything else a usage error, as is --cluster-weights
// outside 1..128.
TEST(CompileOptions, CompressWeightsDefaultsAndSpellings) {
  auto bits = [](const std::string& target, const std::string& optimize, const std::string& compress) {
    CompileCommandOptions o;
    o.model_path = "m.tflite";
    o.target = target;
    o.optimize = optimize;
    o.compress_weights = compress;
    resolve_compile_options(o);
    return o.compile.target.compress_bits * (o.compile.target.compress_fast_only ? -1 : 1);
  };
  EXPECT_EQ(bits("cortex-m4", "speed", ""), 0);
  EXPECT_EQ(bits("cortex-m4", "balanced", ""), -7);  // fast only
  EXPECT_EQ(bits("cortex-m4", "balanced", "lossless"), 7);
  EXPECT_EQ(bits("cortex-m0plus", "balanced", ""), 7);
  EXPECT_EQ(bits("cortex-m4", "size", ""), 7);
  EXPECT_EQ(bits("cortex-m4", "speed", "lossless"), 7);
  EXPECT_EQ(bits("", "size", "off"), 0);
  EXPECT_EQ(bits("", "speed", "3"), 3);
  for (const char* bad : {"0", "8", "16", "on", "4bits"}) EXPECT_THROW(bits("", "speed", bad), UsageError) << bad;
  CompileCommandOptions o;
  o.model_path = "m.tflite";
  o.compile.cluster_values = 129;
  EXPECT_THROW(resolve_compile_options(o), UsageError);
  o.compile.cluster_values = -1;
  EXPECT_THROW(resolve_compile_options(o), UsageError);
}

}  // namespace
}  // namespace microaot
