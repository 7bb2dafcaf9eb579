// Kernel selection on a made-up registry: the variant the plan asks for, and the implementation for the
// target's instruction set (Helium before DSP before portable C).
#include <gtest/gtest.h>

#include "kernels/select_kernels.h"

namespace microaot {
namespace {

KernelRegistry registry_with_isa_implementations() {
  static const ParamStruct params = {"p", {{"n", ParamKind::kI32}}};
  KernelRegistry r;
  const auto kernel = [&](int id, const char* symbol, KernelVariant variant) {
    KernelInfo k;
    k.id = id;
    k.symbol = symbol;
    k.stem = "conv_s8";
    k.variant = variant;
    k.params = &params;
    k.source = "kernels/portable/conv_s8.c";
    return k;
  };
  r.kernels = {kernel(0, "conv_s8", KernelVariant::kPlain), kernel(1, "conv_s8_overlap", KernelVariant::kOverlap)};
  r.implementations = {{"conv_s8", "mve", "kernels/mve/conv_s8.c"}, {"conv_s8", "dsp", "kernels/dsp/conv_s8.c"}};
  return r;
}

KernelCall call_for(KernelVariant variant) {
  KernelCall call;
  call.stem = "conv_s8";
  call.variant = variant;
  return call;
}

TEST(SelectKernels, PicksTheVariantThePlanNeeds) {
  const KernelRegistry r = registry_with_isa_implementations();
  std::vector<KernelCall> calls = {call_for(KernelVariant::kPlain), call_for(KernelVariant::kOverlap)};
  select_kernels(calls, Target{}, r);
  EXPECT_EQ(calls[0].kernel, 0);
  EXPECT_EQ(calls[1].kernel, 1);
  EXPECT_EQ(calls[0].source, "kernels/portable/conv_s8.c");
}

TEST(SelectKernels, PicksTheImplementationForTheTarget) {
  const KernelRegistry r = registry_with_isa_implementations();
  const KernelInfo& plain = r.kernels[0];
  EXPECT_EQ(select_implementation(r, plain, parse_target("c")), "kernels/portable/conv_s8.c");
  EXPECT_EQ(select_implementation(r, plain, parse_target("c -mcpu=cortex-m3")), "kernels/portable/conv_s8.c");
  EXPECT_EQ(select_implementation(r, plain, parse_target("c -mcpu=cortex-m4")), "kernels/dsp/conv_s8.c");
  EXPECT_EQ(select_implementation(r, plain, parse_target("c -mcpu=cortex-m33+nodsp")), "kernels/portable/conv_s8.c");
  EXPECT_EQ(select_implementation(r, plain, parse_target("c -mcpu=cortex-m55")), "kernels/mve/conv_s8.c");
  EXPECT_EQ(select_implementation(r, plain, parse_target("c -mcpu=cortex-m55+nomve")), "kernels/dsp/conv_s8.c");
}

// --optimize size: the portable source on every cpu, whatever extensions it has.
TEST(SelectKernels, OptimizingForSizeKeepsThePortableImplementation) {
  const KernelRegistry r = registry_with_isa_implementations();
  for (const char* cpu : {"c -mcpu=cortex-m4", "c -mcpu=cortex-m33", "c -mcpu=cortex-m55"}) {
    Target target = parse_target(cpu);
    target.optimize_size = true;
    EXPECT_EQ(select_implementation(r, r.kernels[0], target), "kernels/portable/conv_s8.c") << cpu;
    std::vector<KernelCall> calls = {call_for(KernelVariant::kOverlap)};
    select_kernels(calls, target, r);
    EXPECT_EQ(calls[0].source, "kernels/portable/conv_s8.c") << cpu;
  }
}

TEST(SelectKernels, NamesTheInstructionSetOfASource) {
  EXPECT_EQ(implementation_isa("kernels/portable/conv_s8.c"), "portable");
  EXPECT_EQ(implementation_isa("kernels/dsp/conv_s8.c"), "dsp");
}

// The real list: a cpu without the DSP extension (and +nodsp) runs every kernel from its own source (portable,
// or the DSP folder's for a stem written for DSP alone, which no handler picks there); a DSP cpu runs the
// MICROAOT_KERNEL_ISA(stem, dsp, ...) lines' sources for exactly those stems.
TEST(SelectKernels, TheRealListPicksDspSourcesOnDspCpusOnly) {
  const KernelRegistry& r = kernel_registry();
  for (const char* target : {"c", "c -mcpu=cortex-m3", "c -mcpu=cortex-m0plus", "c -mcpu=cortex-m33+nodsp"}) {
    for (const KernelInfo& k : r.kernels) {
      EXPECT_EQ(select_implementation(r, k, parse_target(target)), k.source) << target;
    }
  }
  for (const char* target : {"c -mcpu=cortex-m4", "c -mcpu=cortex-m7", "c -mcpu=cortex-m33"}) {
    int dsp = 0;
    for (const KernelInfo& k : r.kernels) {
      const std::string source = select_implementation(r, k, parse_target(target));
      bool listed = false;
      for (const KernelImplementation& impl : r.implementations) listed |= impl.stem == k.stem && impl.isa == "dsp";
      EXPECT_EQ(implementation_isa(source), listed ? "dsp" : implementation_isa(k.source)) << target << " " << k.symbol;
      dsp += listed ? 1 : 0;
    }
    EXPECT_GE(dsp, 6) << target;  // conv, depthwise (plain and overlap), fully_connected, add
  }
}

}  // namespace
}  // namespace microaot
