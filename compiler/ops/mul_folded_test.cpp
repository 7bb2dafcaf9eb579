// The folded forms of int8 MUL with one operand broadcast: on layers drawn as TFLM's Prepare makes them (random
// scales and zero points, with and without a fused clamp), mul_s8_folded (the DSP source's host build) over the
// fitted forms against the portable mul_s8 on every pair of input values, the broadcast operand either input, as a
// per-channel vector and as a scalar; the layers refused; and the chooser's choice by target and walk.
#include "ops/mul_folded.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "microaot/kernels/mul.h"
#include "ops/fitted_form_test_util.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

microaot_mul_params_q draw_layer(std::mt19937& rng) {
  std::uniform_real_distribution<double> log_scale(-8, -1), spread(-2, 2);
  std::uniform_int_distribution<int32_t> zero_point(-128, 127);
  const double s1 = std::exp2(log_scale(rng)), s2 = std::exp2(log_scale(rng));
  const double so = s1 * s2 * 128 * std::exp2(spread(rng));  // products of up to 2^14 units land near int8
  const QuantizedMultiplier m = quantize_multiplier(s1 * s2 / so);
  microaot_mul_params_q p{};
  p.input1_offset = -zero_point(rng);
  p.input2_offset = -zero_point(rng);
  p.output_multiplier = m.multiplier;
  p.output_shift = m.shift;
  draw_output_and_clamp(rng, p);
  return p;
}

// Every pair: the full input [256 rows, 256 channels] of row r's value r - 128, the vector of channel c's c - 128.
void expect_every_pair(microaot_mul_params_q p, const std::vector<int32_t>& forms, int broadcast, bool scalar_rows) {
  std::vector<int8_t> full(256 * 256), vector(256);
  for (int r = 0; r < 256; ++r) {
    vector[static_cast<size_t>(r)] = static_cast<int8_t>(r - 128);
    for (int c = 0; c < 256; ++c) full[static_cast<size_t>(r * 256 + c)] = static_cast<int8_t>(scalar_rows ? c - 128 : r - 128);
  }
  // Per channel: walk [256, 256], the vector's strides {0, 1}. As rows: the vector is [256, 1] against rows of 256.
  const int32_t shape[2] = {256, 256}, full_strides[2] = {256, 1};
  const int32_t vector_strides[2] = {scalar_rows ? 1 : 0, scalar_rows ? 0 : 1};
  p.flat_size = 256 * 256;
  p.num_dims = 2;
  p.output_shape = shape;
  p.input1_strides = broadcast == 0 ? vector_strides : full_strides;
  p.input2_strides = broadcast == 0 ? full_strides : vector_strides;
  const int8_t* in1 = broadcast == 0 ? vector.data() : full.data();
  const int8_t* in2 = broadcast == 0 ? full.data() : vector.data();
  std::vector<int8_t> expected(full.size()), got(full.size());
  microaot_mul_s8(&p, in1, in2, expected.data());
  microaot_mul_s8_folded(&p, in1, in2, forms.data(), got.data());
  ASSERT_EQ(got, expected);
}

TEST(MulFolded, FittedFormsMatchThePortableKernelOnEveryPair) {
  std::mt19937 rng(17);
  int fitted = 0;
  const int layers = 24;
  for (int i = 0; i < layers; ++i) {
    const microaot_mul_params_q p = draw_layer(rng);
    const int broadcast = i % 2;
    std::string why;
    const std::vector<int32_t> forms = fit_mul_folded_forms(p, broadcast, &why);
    if (forms.empty()) {
      EXPECT_FALSE(why.empty());
      continue;
    }
    ++fitted;
    ASSERT_EQ(forms.size(), 513u);
    EXPECT_EQ(forms[512], broadcast);
    expect_every_pair(p, forms, broadcast, false);
    expect_every_pair(p, forms, broadcast, true);
  }
  // A layer without forms keeps mul_s8 (not wrong, slower): TFLM's two roundings with ties away from zero are not
  // one floor form on both sides of a product of 0 wherever ties fall on both (12 of these 24 layers fit, mostly
  // those whose output clamps the negative side: docs/dsp-add-depthwise.md).
  EXPECT_GE(fitted, layers / 3);
}

TEST(MulFolded, RefusesSlopesBeyondInt32) {
  std::mt19937 rng(19);
  microaot_mul_params_q p = draw_layer(rng);
  p.output_multiplier = INT32_MAX;
  p.output_shift = 6;  // 2^6 output units per unit of the product: slopes of 2^37
  std::string why;
  EXPECT_TRUE(fit_mul_folded_forms(p, 1, &why).empty());
  EXPECT_NE(why.find("beyond int32"), std::string::npos) << why;
}

KernelCall mul_call(const microaot_mul_params_q& p, int32_t num_dims, std::vector<int64_t> strides1,
                    std::vector<int64_t> strides2) {
  KernelCall call;
  call.stem = "mul_s8";
  call.args = {0, 1, 2};
  const std::pair<const char*, int32_t> fields[] = {
      {"flat_size", 64},          {"num_dims", num_dims},           {"input1_offset", p.input1_offset},
      {"input2_offset", p.input2_offset}, {"output_multiplier", p.output_multiplier}, {"output_shift", p.output_shift},
      {"output_offset", p.output_offset}, {"activation_min", p.activation_min}, {"activation_max", p.activation_max}};
  for (const auto& [field, value] : fields) call.params.set_int(field, value);
  call.params.set_ints("output_shape", num_dims == 2 ? std::vector<int64_t>{8, 8} : std::vector<int64_t>{});
  call.params.set_ints("input1_strides", std::move(strides1));
  call.params.set_ints("input2_strides", std::move(strides2));
  return call;
}

TEST(MulFolded, TakesTheFoldedStemForABroadcastOperandOnTheDsp) {
  std::mt19937 rng(23);
  microaot_mul_params_q p = draw_layer(rng);
  p.output_offset = -128;  // the negative side clamped: every value has a form
  p.activation_min = -128, p.activation_max = 127;
  std::string why;
  ASSERT_FALSE(fit_mul_folded_forms(p, 0, &why).empty()) << why;
  Target dsp;
  dsp.dsp = true;
  KernelCall channels = mul_call(p, 2, {0, 1}, {8, 1});
  KernelCall portable = channels;
  use_mul_folded_form(portable, Target{});
  EXPECT_EQ(portable.stem, "mul_s8");
  use_mul_folded_form(channels, dsp);
  EXPECT_EQ(channels.stem, "mul_s8_folded") << channels.specialisation;
  EXPECT_EQ(channels.args, (std::vector<int>{0, 1, derived_arg(0), 2}));
  ASSERT_EQ(channels.derived.size(), 1u);
  EXPECT_EQ(channels.derived[0].byte_size(), 513 * 4);
  EXPECT_NE(channels.specialisation.find("input 1's channels folded"), std::string::npos) << channels.specialisation;
  KernelCall flat = mul_call(p, 0, {}, {});
  use_mul_folded_form(flat, dsp);
  EXPECT_EQ(flat.stem, "mul_s8");  // both operands per element
  KernelCall strided = mul_call(p, 2, {8, 2}, {0, 1});
  use_mul_folded_form(strided, dsp);
  EXPECT_EQ(strided.stem, "mul_s8");
}

}  // namespace
}  // namespace microaot
