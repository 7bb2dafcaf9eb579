// The words network_info.txt gives a 16x8 layer that the DSP kernels of its stem run through their portable loop:
// the kernels' own fit rules (microaot/fit/dsp_s16.h), on a DSP target only.
#include <gtest/gtest.h>

#include "kernels/isa_fallbacks.h"

namespace microaot {
namespace {

KernelCall conv_s16(int64_t input_depth, int64_t filter_depth, int64_t filter_size) {
  KernelCall call;
  call.stem = "conv_2d_s16";
  call.params.set_int("input_depth", input_depth);
  call.params.set_int("filter_depth", filter_depth);
  call.params.set_int("filter_height", filter_size);
  call.params.set_int("filter_width", filter_size);
  return call;
}

KernelCall fc_s16(int64_t depth, int64_t input_offset) {
  KernelCall call;
  call.stem = "fully_connected_s16";
  call.params.set_int("input_depth", depth);
  call.params.set_int("input_offset", input_offset);
  return call;
}

// Only grouped filters keep the portable loop: windows and rows of any length, and zero-point offsets, take the
// DSP loops (in pieces where long).
TEST(IsaFallbacks, NamesWhyA16x8LayerKeepsThePortableLoopOnADspTarget) {
  const Target m4 = parse_target("cortex-m4"), generic = parse_target("c");
  EXPECT_EQ(isa_fallback(conv_s16(64, 64, 3), m4), "");    // 576 elements: gathered whole
  EXPECT_EQ(isa_fallback(conv_s16(128, 128, 3), m4), "");  // 1,152 elements: in pieces
  EXPECT_EQ(isa_fallback(conv_s16(5000, 5000, 1), m4), "");
  EXPECT_NE(isa_fallback(conv_s16(16, 8, 3), m4).find("grouped filter"), std::string::npos);
  EXPECT_EQ(isa_fallback(conv_s16(16, 8, 3), generic), "");  // no DSP kernel there
  EXPECT_EQ(isa_fallback(fc_s16(1024, 0), m4), "");
  EXPECT_EQ(isa_fallback(fc_s16(6000, 0), m4), "");
  EXPECT_EQ(isa_fallback(fc_s16(8, 2), m4), "");
  KernelCall int8 = conv_s16(16, 8, 3);
  int8.stem = "conv_2d_s8";
  EXPECT_EQ(isa_fallback(int8, m4), "");  // not a stem of the list
}

}  // namespace
}  // namespace microaot
