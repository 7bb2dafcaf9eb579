// compile_flags_text: the recorded flags name every option that changes the output, and the target
// spelled there parses back to the same target.
#include <gtest/gtest.h>

#include "codegen/emit.h"

namespace microaot {
namespace {

std::string target_in(const std::string& flags) {
  const std::string key = "--target '";
  const size_t start = flags.find(key) + key.size();
  return flags.substr(start, flags.find('\'', start) - start);
}

TEST(CompileFlags, DefaultsAreSpelledOut) {
  EXPECT_EQ(compile_flags_text(CompileOptions{}),
            "--module-name model --target 'c' --executor aot --planner best --alignment 16 --io-in-arena on");
}

TEST(CompileFlags, EveryOptionThatChangesTheOutputIsRecorded) {
  CompileOptions o;
  o.module_name = "kws";
  o.interface_api_c = true;
  o.planner = "hill_climb";
  o.alignment = 4;
  o.ram_budget = 9000;
  o.io_in_arena = false;
  o.target.optimize_size = true;
  o.target.compress_bits = default_compress_bits(o.target);  // as resolve_compile_options sets it
  o.pools = {{"dtcm", 8192, 16}, {"sram", 65536, 32}};
  EXPECT_EQ(compile_flags_text(o),
            "--module-name kws --target 'c' --executor aot --planner hill_climb --alignment 4 --io-in-arena off "
            "--optimize size --interface-api c --ram-budget 9000 --pool dtcm:8192:16 --pool sram:65536:32");
  o.target.optimize_size = false;
  o.target.optimize_balanced = true;
  EXPECT_NE(compile_flags_text(o).find(" --optimize balanced "), std::string::npos) << compile_flags_text(o);
  // --compress-weights where it is not the setting's default; --cluster-weights whenever given (lossy).
  o.target.compress_bits = 4;
  o.cluster_values = 16;
  EXPECT_NE(compile_flags_text(o).find(" --compress-weights 4 --cluster-weights 16 "), std::string::npos)
      << compile_flags_text(o);
}

TEST(CompileFlags, TheTargetParsesBackToItself) {
  for (const char* spelling : {"c", "host", "c -mcpu=cortex-m4", "cortex-m7", "c -mcpu=cortex-m33+nodsp",
                               "c -mcpu=cortex-m55+nomve+nofp", "c -mcpu=cortex-m4+nofp", "cmsis-nn, c -mcpu=cortex-m55",
                               "c -mcpu=cortex-m55+nodsp"}) {
    CompileOptions o;
    o.target = parse_target(spelling);
    const Target back = parse_target(target_in(compile_flags_text(o)));
    EXPECT_EQ(back.cpu, o.target.cpu) << spelling;
    EXPECT_EQ(back.dsp, o.target.dsp) << spelling;
    EXPECT_EQ(back.mve, o.target.mve) << spelling;
    EXPECT_EQ(back.fpu, o.target.fpu) << spelling;
    EXPECT_EQ(back.fast_kernels_requested, o.target.fast_kernels_requested) << spelling;
  }
}

}  // namespace
}  // namespace microaot
