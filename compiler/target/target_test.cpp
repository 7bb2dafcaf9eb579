// --target parsing: tvmc's spellings, bare cpu names, feature modifiers and clear refusals.
#include <gtest/gtest.h>

#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_target(text);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

TEST(Target, GenericCWithoutACpu) {
  for (const char* text : {"c", "host", "", "llvm"}) {
    const Target t = parse_target(text);
    EXPECT_TRUE(t.is_generic()) << text;
    EXPECT_FALSE(t.dsp);
    EXPECT_EQ(t.describe(), "generic C");
  }
}

TEST(Target, CpusCarryTheirExtensions) {
  const Target m4 = parse_target("c -mcpu=cortex-m4");
  EXPECT_EQ(m4.cpu, "cortex-m4");
  EXPECT_EQ(m4.arch, "armv7e-m");
  EXPECT_TRUE(m4.dsp);
  EXPECT_FALSE(m4.mve);
  EXPECT_EQ(m4.fpu, "fpv4-sp-d16");
  EXPECT_EQ(m4.describe(), "cortex-m4 (armv7e-m, dsp, fpu fpv4-sp-d16)");
  EXPECT_FALSE(parse_target("cortex-m3").dsp);
  EXPECT_FALSE(parse_target("cortex-m0plus").dsp);
  EXPECT_TRUE(parse_target("c -mcpu=cortex-m55").mve);
  EXPECT_TRUE(parse_target("c -mcpu=cortex-m55").dsp);
  EXPECT_TRUE(parse_target("cortex-m33").dsp);
}

TEST(Target, ModifiersTurnFeaturesOff) {
  EXPECT_FALSE(parse_target("c -mcpu=cortex-m33+nodsp").dsp);
  EXPECT_EQ(parse_target("c -mcpu=cortex-m4+nofp").fpu, "none");
  const Target m55 = parse_target("cortex-m55+nomve");
  EXPECT_FALSE(m55.mve);
  EXPECT_TRUE(m55.dsp);
  EXPECT_FALSE(parse_target("cortex-m55+nodsp").mve);  // MVE needs the DSP extension
}

TEST(Target, MattrSwitchesKernelsFeaturesOff) {
  EXPECT_FALSE(parse_target("c -mcpu=cortex-m4 -mattr=+nodsp").dsp);
  EXPECT_FALSE(parse_target("c -mattr=-dsp -mcpu=cortex-m7").dsp);  // in either order
  const Target m55 = parse_target("c -mcpu=cortex-m55 -mattr=+nomve");
  EXPECT_FALSE(m55.mve);
  EXPECT_TRUE(m55.dsp);
  EXPECT_FALSE(parse_target("c -mcpu=cortex-m55 -mattr=-mve,+nofp").mve);
  EXPECT_EQ(parse_target("c -mcpu=cortex-m55 -mattr=-mve,+nofp").fpu, "none");
  EXPECT_TRUE(parse_target("c -mcpu=cortex-m4 -mattr=+dsp").dsp);  // confirms what the cpu has
  EXPECT_EQ(parse_target("c -mcpu=cortex-m4 -mattr=+nodsp").describe(), "cortex-m4 (armv7e-m, fpu fpv4-sp-d16)");
}

TEST(Target, TvmcCmsisNnSpelling) {
  const Target t = parse_target("cmsis-nn, c -mcpu=cortex-m7");
  EXPECT_EQ(t.cpu, "cortex-m7");
  EXPECT_TRUE(t.fast_kernels_requested);
  EXPECT_TRUE(parse_target("cmsis-nn,c").is_generic());
  EXPECT_FALSE(parse_target("c -mcpu=cortex-m7").fast_kernels_requested);
}

TEST(Target, RefusalsNameWhatIsKnown) {
  EXPECT_NE(error_of("c -mcpu=cortex-a53").find("unknown -mcpu 'cortex-a53'"), std::string::npos);
  EXPECT_NE(error_of("c -mcpu=cortex-a53").find("cortex-m4"), std::string::npos);
  EXPECT_NE(error_of("c -mcpu=cortex-m4+fast").find("unknown -mcpu modifier '+fast'"), std::string::npos);
  EXPECT_NE(error_of("c fast").find("unknown target option 'fast'"), std::string::npos);
  EXPECT_NE(error_of("cmsis-nn c").find("cmsis-nn must be followed by"), std::string::npos);
  EXPECT_EQ(error_of("c -mcpu=cortex-m4 -model=stm32"), "");  // names a board: changes no code
  EXPECT_NE(error_of("c -mcpu=cortex-m4 -mattr=+fast").find("unknown -mattr entry '+fast'"), std::string::npos);
  EXPECT_NE(error_of("c -mcpu=cortex-m4 -mattr=+fast").find("+nodsp"), std::string::npos);
  EXPECT_NE(error_of("c -mcpu=cortex-m3 -mattr=+dsp").find("cortex-m3 has no DSP extension"), std::string::npos);
  EXPECT_NE(error_of("c -mcpu=cortex-m4 -mfloat-abi=hard").find("unknown target option '-mfloat-abi=hard'"),
            std::string::npos);
}

}  // namespace
}  // namespace microaot
