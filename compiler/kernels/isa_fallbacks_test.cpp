// The words network_info.txt gives a 16x8 layer that the DSP kernels of its stem run through their portable loop:
// the kernels' own fit rules (microaot/fit/dsp_s16.h), on a DSP target only.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

KernelCall depthwise_s16(int64_t filter_h, int64_t filter_w, std::vector<int64_t> shifts, int64_t lo = -32768) {
  KernelCall call;
  call.stem = "depthwise_conv_2d_s16";
  call.params.set_int("filter_height", filter_h);
  call.params.set_int("filter_width", filter_w);
  call.params.set_int("output_depth", static_cast<int64_t>(shifts.size()));
  call.params.set_int("activation_min", lo);
  call.params.set_int("activation_max", 32767);
  call.params.set_ints("output_shift", std::move(shifts));
  return call;
}

TEST(IsaFallbacks, NamesWhyA16x8DepthwiseLayerKeepsThePortableLoop) {
  const Target m4 = parse_target("cortex-m4"), generic = parse_target("c");
  EXPECT_EQ(isa_fallback(depthwise_s16(3, 3, {-1, -9, -17}), m4), "");
  EXPECT_EQ(isa_fallback(depthwise_s16(8, 16, {-5}), m4), "");  // 128 taps
  EXPECT_NE(isa_fallback(depthwise_s16(11, 12, {-5}), m4).find("a filter of 132 taps, over its 128"),
            std::string::npos);
  EXPECT_NE(isa_fallback(depthwise_s16(3, 3, {-9, 0}), m4).find("an output shift of 0, outside [-17, -1]"),
            std::string::npos);
  EXPECT_NE(isa_fallback(depthwise_s16(3, 3, {-18, -9}), m4).find("an output shift of -18"), std::string::npos);
  EXPECT_NE(isa_fallback(depthwise_s16(3, 3, {-9}, -40000), m4).find("a clamp outside int16"), std::string::npos);
  EXPECT_EQ(isa_fallback(depthwise_s16(3, 3, {0}), generic), "");  // no DSP kernel there
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
