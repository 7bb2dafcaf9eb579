// The linear form of int8 ADD and SUB: on layers drawn as TFLM's Prepare makes them (random scales and zero
// points, with and without a fused clamp), the portable add_s8_linear over the fitted form against the portable
// add_s8 / sub_s8 over every pair of input values, flat and broadcast; and the layers refused.
#include "ops/add_linear.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "microaot/kernels/add.h"
#include "ops/fitted_form_test_util.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

struct Layer {
  microaot_add_params_q params{};
  bool subtract = false;
};

// TFLM's CalculateOpDataAdd for scales s1, s2, so (in double, as ADD), zero points and a clamp.
Layer draw_layer(std::mt19937& rng, bool subtract) {
  std::uniform_real_distribution<double> log_scale(-8, -1), spread(-1, 1);
  std::uniform_int_distribution<int32_t> zero_point(-128, 127);
  const double s1 = std::exp2(log_scale(rng)), s2 = std::exp2(log_scale(rng));
  const double so = (s1 + s2) * std::exp2(spread(rng));
  const double twice_max = 2 * std::max(s1, s2);
  const QuantizedMultiplier m1 = quantize_multiplier_smaller_than_one(s1 / twice_max);
  const QuantizedMultiplier m2 = quantize_multiplier_smaller_than_one(s2 / twice_max);
  const QuantizedMultiplier mo = quantize_multiplier_smaller_than_one(twice_max / ((1 << 20) * so));
  Layer l;
  l.subtract = subtract;
  microaot_add_params_q& p = l.params;
  p.input1_offset = -zero_point(rng);
  p.input1_multiplier = m1.multiplier;
  p.input1_shift = m1.shift;
  p.input2_offset = -zero_point(rng);
  p.input2_multiplier = m2.multiplier;
  p.input2_shift = m2.shift;
  p.left_shift = 20;
  p.output_multiplier = mo.multiplier;
  p.output_shift = mo.shift;
  draw_output_and_clamp(rng, p);
  return l;
}

// Every pair of int8 values as two rows: (a, b) = (i / 256 - 128, i % 256 - 128).
void all_pairs(std::vector<int8_t>& a, std::vector<int8_t>& b) {
  for (int x = -128; x < 128; ++x) {
    for (int y = -128; y < 128; ++y) a.push_back(static_cast<int8_t>(x)), b.push_back(static_cast<int8_t>(y));
  }
}

TEST(AddLinear, FittedFormsMatchThePortableKernelOnEveryPair) {
  std::mt19937 rng(13);
  std::vector<int8_t> a, b;
  all_pairs(a, b);
  int fitted = 0;
  const int layers = 40;
  for (int i = 0; i < layers; ++i) {
    Layer l = draw_layer(rng, i % 4 == 3);
    l.params.flat_size = static_cast<int32_t>(a.size());
    const std::vector<int32_t> form = fit_add_linear_form(l.params, l.subtract);
    if (form.empty()) continue;
    ++fitted;
    ASSERT_EQ(form.size(), 3u);
    std::vector<int8_t> expected(a.size()), got(a.size());
    (l.subtract ? microaot_sub_s8 : microaot_add_s8)(&l.params, a.data(), b.data(), expected.data());
    microaot_add_s8_linear(&l.params, a.data(), b.data(), form.data(), got.data());
    ASSERT_EQ(got, expected) << "layer " << i;
  }
  EXPECT_GE(fitted, layers * 9 / 10);  // a layer without a form keeps the general kernel: rare, not wrong
}

TEST(AddLinear, BroadcastWalksTheSameForm) {
  std::mt19937 rng(5);
  const Layer l = draw_layer(rng, false);
  const std::vector<int32_t> form = fit_add_linear_form(l.params, false);
  ASSERT_FALSE(form.empty());
  // input 2 a row of 7 broadcast over 256 rows of input 1's 7 columns.
  const int32_t shape[2] = {256, 7}, strides1[2] = {7, 1}, strides2[2] = {0, 1};
  microaot_add_params_q p = l.params;
  p.flat_size = 256 * 7;
  p.num_dims = 2;
  p.output_shape = shape;
  p.input1_strides = strides1;
  p.input2_strides = strides2;
  std::vector<int8_t> a(256 * 7), b = {-128, -1, 0, 1, 63, 127, -77}, expected(a.size()), got(a.size());
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<int8_t>(k * 37 % 256);
  microaot_add_s8(&p, a.data(), b.data(), expected.data());
  microaot_add_s8_linear(&p, a.data(), b.data(), form.data(), got.data());
  EXPECT_EQ(got, expected);
}

TEST(AddLinear, RefusesLayersOutsideTheForm) {
  std::mt19937 rng(7);
  Layer l = draw_layer(rng, false);
  ASSERT_FALSE(fit_add_linear_form(l.params, false).empty());
  Layer left = l;
  left.params.output_shift = 1;  // not what ADD's Prepare makes: the general kernel handles it
  EXPECT_TRUE(fit_add_linear_form(left.params, false).empty());
  Layer steep = l;
  steep.params.output_multiplier = INT32_MAX;  // slopes of 2^7 and more leave no room in the int32 terms
  steep.params.output_shift = 0;
  steep.params.left_shift = 22;
  EXPECT_TRUE(fit_add_linear_form(steep.params, false).empty());
  Layer shifted = l;
  shifted.params.left_shift = 23;  // (q + offset) * 2^23 could overflow the reference's int32
  EXPECT_TRUE(fit_add_linear_form(shifted.params, false).empty());
}

// ADD's lowered call of the layer `p`, over a walk of `num_dims` (0: flat) and 64 elements.
KernelCall add_call(const microaot_add_params_q& p, int32_t num_dims = 0) {
  KernelCall call;
  call.stem = "add_s8";
  call.args = {0, 1, 2};
  const std::pair<const char*, int32_t> fields[] = {
      {"flat_size", 64},                        {"num_dims", num_dims},
      {"input1_offset", p.input1_offset},       {"input1_multiplier", p.input1_multiplier},
      {"input1_shift", p.input1_shift},         {"input2_offset", p.input2_offset},
      {"input2_multiplier", p.input2_multiplier}, {"input2_shift", p.input2_shift},
      {"left_shift", p.left_shift},             {"output_multiplier", p.output_multiplier},
      {"output_shift", p.output_shift},         {"output_offset", p.output_offset},
      {"activation_min", p.activation_min},     {"activation_max", p.activation_max}};
  for (const auto& [field, value] : fields) call.params.set_int(field, value);
  return call;
}

TEST(AddLinear, TakesTheLinearStemOnlyWithTheDspExtension) {
  std::mt19937 rng(3);
  KernelCall call = add_call(draw_layer(rng, false).params);
  KernelCall portable = call;
  use_add_linear_form(portable, Target{}, false);
  EXPECT_EQ(portable.stem, "add_s8");
  Target dsp;
  dsp.dsp = true;
  Target size = dsp;
  size.optimize_size = true;
  use_add_linear_form(portable, size, false);
  EXPECT_EQ(portable.stem, "add_s8");
  use_add_linear_form(call, dsp, false);
  EXPECT_EQ(call.stem, "add_s8_linear");
  EXPECT_EQ(call.args, (std::vector<int>{0, 1, derived_arg(0), 2}));
  ASSERT_EQ(call.derived.size(), 1u);
  EXPECT_EQ(call.derived[0].byte_size(), 12);
}

// A layer whose walk folds one operand (a scalar here, or a per-channel vector) takes the folded forms' kernel
// on the DSP, one of two full operands or a strided walk the lean add_s8_linear; Helium keeps add_s8_linear.
TEST(AddLinear, TakesTheFoldedStemOnlyWhereAnOperandFolds) {
  std::mt19937 rng(5);
  const microaot_add_params_q p = draw_layer(rng, false).params;
  const auto call_of = [&](std::vector<int64_t> shape, std::vector<int64_t> strides1, std::vector<int64_t> strides2) {
    KernelCall call = add_call(p, static_cast<int32_t>(shape.size()));
    call.params.set_ints("output_shape", shape);
    call.params.set_ints("input1_strides", strides1);
    call.params.set_ints("input2_strides", strides2);
    return call;
  };
  Target dsp;
  dsp.dsp = true;
  Target helium = dsp;
  helium.mve = true;
  const struct {
    KernelCall call;
    const char* on_dsp;
  } cases[] = {{call_of({64}, {1}, {1}), "add_s8_linear"},
               {call_of({64}, {0}, {1}), "add_s8_folded"},
               {call_of({8, 16}, {16, 1}, {0, 1}), "add_s8_folded"},
               {call_of({8, 16}, {16, 1}, {1, 0}), "add_s8_folded"},
               {call_of({64}, {2}, {1}), "add_s8_linear"}};
  for (const auto& c : cases) {
    KernelCall on_dsp = c.call, on_helium = c.call;
    use_add_linear_form(on_dsp, dsp, false);
    EXPECT_EQ(on_dsp.stem, c.on_dsp) << on_dsp.specialisation;
    use_add_linear_form(on_helium, helium, false);
    EXPECT_EQ(on_helium.stem, "add_s8_linear") << on_helium.specialisation;
  }
}

}  // namespace
}  // namespace microaot
