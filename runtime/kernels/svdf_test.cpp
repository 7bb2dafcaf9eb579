// SVDF kernels over several runs against a reference written here from TFLM's arithmetic (svdf_common.cc),
// with the state kept as one queue per filter (oldest first) instead of TFLM's shifted flat buffer: each run
// drops every queue's oldest value and appends the new feature value. int16 and int8 state, with and without
// bias, batches and rank above 1, float32 with an activation, and a hand-computed float delay line; the
// shifting kernels and the ring kernels (whose state, read from its position, must be TFLM's).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <limits>
#include <random>
#include <vector>

#include "conv_geometry_test_util.h"  // random_ints
#include "microaot/kernels/svdf.h"
#include "multiplier_test_util.h"
#include "requantize_reference.h"

namespace {

struct Sizes {
  int batches, input_size, units, rank, memory;
  int filters() const { return units * rank; }
};

// The quantized model: TFLM's effective scales and zero points.
struct Quant {
  int32_t input_zp = 0, state_zp = 0, output_zp = 0;
  double feature_scale = 0, output_scale = 0;
};

template <typename State>
struct Reference {
  Sizes sz;
  Quant q;
  std::vector<std::vector<std::deque<int32_t>>> queues;  // [batch][filter], memory values each, oldest first

  Reference(Sizes s, Quant quant) : sz(s), q(quant) {
    queues.assign(s.batches, std::vector<std::deque<int32_t>>(s.filters(), std::deque<int32_t>(s.memory, quant.state_zp)));
  }

  std::vector<int8_t> run(const std::vector<int8_t>& in, const std::vector<int8_t>& wf, const std::vector<State>& wt,
                          const std::vector<int32_t>* bias) {
    const multiplier_test::Multiplier m1 = multiplier_test::quantize(q.feature_scale);
    const multiplier_test::Multiplier m2 = multiplier_test::quantize(q.output_scale);
    std::vector<int8_t> out;
    for (int b = 0; b < sz.batches; ++b) {
      std::vector<int32_t> filter_sum(sz.filters());
      for (int f = 0; f < sz.filters(); ++f) {
        int32_t dot = 0;
        for (int d = 0; d < sz.input_size; ++d) dot += wf[f * sz.input_size + d] * (in[b * sz.input_size + d] - q.input_zp);
        const int32_t lo = std::numeric_limits<State>::min(), hi = std::numeric_limits<State>::max();
        const int32_t value = std::clamp(requantize_reference::requantize_s32(dot, m1.mantissa, m1.shift), lo, hi);
        auto& queue = queues[b][f];
        queue.pop_front();
        queue.push_back(static_cast<State>(q.state_zp + value));
        for (int j = 0; j < sz.memory; ++j) filter_sum[f] += wt[f * sz.memory + j] * (queue[j] - q.state_zp);
      }
      for (int u = 0; u < sz.units; ++u) {
        int32_t acc = bias ? (*bias)[u] : 0;
        for (int r = 0; r < sz.rank; ++r) acc += filter_sum[u * sz.rank + r];
        const int32_t scaled = requantize_reference::requantize_s32(acc, m2.mantissa, m2.shift) + q.output_zp;
        out.push_back(static_cast<int8_t>(std::clamp(scaled, -128, 127)));
      }
    }
    return out;
  }

  // TFLM's flat state layout: [batch][filter][memory], oldest first.
  std::vector<State> flat_state() const {
    std::vector<State> flat;
    for (const auto& batch : queues) {
      for (const auto& queue : batch) flat.insert(flat.end(), queue.begin(), queue.end());
    }
    return flat;
  }
};

microaot_svdf_params_q params_for(const Sizes& s, const Quant& q) {
  const multiplier_test::Multiplier m1 = multiplier_test::quantize(q.feature_scale);
  const multiplier_test::Multiplier m2 = multiplier_test::quantize(q.output_scale);
  return {s.batches, s.input_size, s.filters(), s.units, s.rank,  s.memory,  -q.input_zp,
          q.state_zp, q.output_zp, m1.mantissa,  m1.shift, m2.mantissa, m2.shift};
}

// The state in TFLM's layout from a ring state: each filter's slots from `position` (its oldest) on.
template <typename T>
std::vector<T> tflm_layout(const std::vector<T>& ring, int32_t position, int memory) {
  std::vector<T> flat(ring.size());
  for (size_t row = 0; row < ring.size() / static_cast<size_t>(memory); ++row) {
    for (int m = 0; m < memory; ++m) flat[row * memory + m] = ring[row * memory + (position + m) % memory];
  }
  return flat;
}

// A kernel under test with its state: a shifting kernel (TFLM's layout), or a ring kernel with its position.
template <typename State, typename Params, typename In, typename Out, typename Bias>
struct KernelUnderTest {
  using Shifting = void (*)(const Params*, const In*, const In*, const State*, const Bias*, State*, Out*, void*);
  using Ring = microaot_status (*)(const Params*, const In*, const In*, const State*, const Bias*, State*, int32_t*,
                                   Out*, void*);
  Shifting shifting = nullptr;
  Ring ring = nullptr;
  std::vector<State> state;
  int32_t position = 0;

  void run(const Params& p, const std::vector<In>& in, const std::vector<In>& wf, const std::vector<State>& wt,
           const Bias* bias, std::vector<Out>& out, void* scratch) {
    if (shifting != nullptr) {
      shifting(&p, in.data(), wf.data(), wt.data(), bias, state.data(), out.data(), scratch);
      return;
    }
    ASSERT_EQ(ring(&p, in.data(), wf.data(), wt.data(), bias, state.data(), &position, out.data(), scratch),
              MICROAOT_STATUS_OK);
    ASSERT_TRUE(position >= 0 && position < p.memory);
  }
  std::vector<State> tflm_state(int memory) const {
    return shifting != nullptr ? state : tflm_layout(state, position, memory);
  }
};

template <typename State>
using IntegerKernel = KernelUnderTest<State, microaot_svdf_params_q, int8_t, int8_t, int32_t>;
using FloatKernel = KernelUnderTest<float, microaot_svdf_params_f32, float, float, float>;

// Runs `steps` runs of the kernel on fresh random inputs; checks the output and the whole state each run.
template <typename State>
void expect_matches_reference(IntegerKernel<State> kernel, Sizes s, Quant q, bool with_bias, int state_range,
                              int steps) {
  std::mt19937 rng(1234);
  const auto wf = random_ints<int8_t>(rng, s.filters() * s.input_size, -127, 127);
  const auto wt = random_ints<State>(rng, s.filters() * s.memory, -state_range, state_range);
  const auto bias = random_ints<int32_t>(rng, s.units, -5000, 5000);
  const microaot_svdf_params_q p = params_for(s, q);
  Reference<State> ref(s, q);
  kernel.state.assign(static_cast<size_t>(s.batches * s.filters() * s.memory), static_cast<State>(q.state_zp));
  std::vector<int32_t> scratch(static_cast<size_t>(s.batches * (s.filters() + s.units)));
  for (int step = 0; step < steps; ++step) {
    const auto in = random_ints<int8_t>(rng, s.batches * s.input_size, -128, 127);
    std::vector<int8_t> out(static_cast<size_t>(s.batches * s.units));
    ASSERT_NO_FATAL_FAILURE(kernel.run(p, in, wf, wt, with_bias ? bias.data() : nullptr, out, scratch.data()));
    ASSERT_EQ(out, ref.run(in, wf, wt, with_bias ? &bias : nullptr)) << "run " << step;
    ASSERT_EQ(kernel.tflm_state(s.memory), ref.flat_state()) << "run " << step;
  }
}

const IntegerKernel<int16_t> kShiftingS16{microaot_svdf_s8_s16, nullptr, {}, 0};
const IntegerKernel<int16_t> kRingS16{nullptr, microaot_svdf_ring_s8_s16, {}, 0};
const IntegerKernel<int8_t> kShiftingS8{microaot_svdf_s8_s8, nullptr, {}, 0};
const IntegerKernel<int8_t> kRingS8{nullptr, microaot_svdf_ring_s8_s8, {}, 0};

TEST(SvdfS8S16, MatchesTflmArithmeticOverRuns) {
  const Quant q{-7, 0, 3, 0.0123, 0.00071};
  expect_matches_reference(kShiftingS16, {2, 5, 3, 2, 4}, q, true, 3000, 8);
}

TEST(SvdfS8S16, WithoutBiasAndRankOne) {
  const Quant q{5, 0, -2, 0.8, 0.0002};  // a large feature scale: the state saturates at its int16 ends
  expect_matches_reference(kShiftingS16, {1, 7, 4, 1, 3}, q, false, 2000, 6);
}

TEST(SvdfS8S8, MatchesTflmArithmeticWithAStateZeroPoint) {
  const Quant q{2, -4, 1, 0.004, 0.011};
  expect_matches_reference(kShiftingS8, {3, 6, 2, 3, 5}, q, true, 100, 7);
}

TEST(SvdfS8S16, MemoryOneKeepsOnlyTheNewValue) {
  const Quant q{0, 0, 0, 0.05, 0.01};
  expect_matches_reference(kShiftingS16, {2, 3, 2, 2, 1}, q, true, 500, 3);
}

// The ring kernels over more than two turns of every ring: the same outputs and, read from the position,
// the same state as TFLM's shifted one.
TEST(SvdfRingS8S16, MatchesTflmArithmeticOverTurnsOfTheRing) {
  const Quant q{-7, 0, 3, 0.0123, 0.00071};
  expect_matches_reference(kRingS16, {2, 5, 3, 2, 4}, q, true, 3000, 3 * 4 + 1);
  expect_matches_reference(kRingS16, {1, 7, 4, 1, 3}, {5, 0, -2, 0.8, 0.0002}, false, 2000, 2 * 3 + 2);
}

TEST(SvdfRingS8S8, MatchesTflmArithmeticWithAStateZeroPoint) {
  const Quant q{2, -4, 1, 0.004, 0.011};
  expect_matches_reference(kRingS8, {3, 6, 2, 3, 5}, q, true, 100, 2 * 5 + 3);
}

TEST(SvdfRingS8S16, MemoryOneKeepsOnlyTheNewValue) {
  const Quant q{0, 0, 0, 0.05, 0.01};
  expect_matches_reference(kRingS16, {2, 3, 2, 2, 1}, q, true, 500, 3);
}

TEST(SvdfRingS8S8, RefusesAPositionOutsideTheRing) {
  const Sizes s{1, 2, 1, 1, 3};
  const microaot_svdf_params_q p = params_for(s, {0, 0, 0, 0.05, 0.01});
  const int8_t in[2] = {1, 2}, wf[2] = {3, 4}, wt[3] = {1, 1, 1};
  int8_t state[3] = {0, 0, 0}, out[1] = {0};
  int32_t scratch[2];
  for (int32_t position : {-1, 3}) {
    EXPECT_EQ(microaot_svdf_ring_s8_s8(&p, in, wf, wt, nullptr, state, &position, out, scratch),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE);
  }
}

// Float: the reference in TFLM's order (filter sums from 0, bias first then the rank's sums, then the clamp).
void expect_float_matches_tflm_order(FloatKernel kernel, int steps) {
  const Sizes s{2, 4, 3, 2, 3};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const auto random_floats = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
  };
  const auto wf = random_floats(s.filters() * s.input_size), wt = random_floats(s.filters() * s.memory);
  const auto bias = random_floats(s.units);
  const microaot_svdf_params_f32 p{s.batches, s.input_size, s.filters(), s.units, s.rank, s.memory, 0.0f, 1e30f};
  kernel.state.assign(s.batches * s.filters() * s.memory, 0.0f);
  std::vector<float> scratch(s.batches * s.filters());
  std::vector<std::vector<std::deque<float>>> queues(s.batches, std::vector<std::deque<float>>(s.filters(), std::deque<float>(s.memory, 0.0f)));
  bool clamped = false;
  for (int step = 0; step < steps; ++step) {
    const auto in = random_floats(s.batches * s.input_size);
    std::vector<float> out(s.batches * s.units);
    ASSERT_NO_FATAL_FAILURE(kernel.run(p, in, wf, wt, bias.data(), out, scratch.data()));
    std::vector<float> flat;
    for (int b = 0; b < s.batches; ++b) {
      std::vector<float> sums(s.filters());
      for (int f = 0; f < s.filters(); ++f) {
        float dot = 0.0f;
        for (int d = 0; d < s.input_size; ++d) dot += wf[f * s.input_size + d] * in[b * s.input_size + d];
        queues[b][f].pop_front();
        queues[b][f].push_back(dot);
        for (int j = 0; j < s.memory; ++j) sums[f] += wt[f * s.memory + j] * queues[b][f][j];
        flat.insert(flat.end(), queues[b][f].begin(), queues[b][f].end());
      }
      for (int u = 0; u < s.units; ++u) {
        float acc = bias[u];
        for (int r = 0; r < s.rank; ++r) acc += sums[u * s.rank + r];
        clamped = clamped || acc < 0.0f;
        ASSERT_FLOAT_EQ(out[b * s.units + u], std::max(acc, 0.0f)) << "run " << step;
      }
    }
    const std::vector<float> state = kernel.tflm_state(s.memory);
    for (size_t k = 0; k < flat.size(); ++k) ASSERT_FLOAT_EQ(state[k], flat[k]) << "run " << step << " value " << k;
  }
  EXPECT_TRUE(clamped);  // the RELU was exercised
}

TEST(SvdfF32, MatchesTflmOrderWithRelu) { expect_float_matches_tflm_order({microaot_svdf_f32, nullptr, {}, 0}, 5); }

TEST(SvdfRingF32, MatchesTflmOrderOverTurnsOfTheRing) {
  expect_float_matches_tflm_order({nullptr, microaot_svdf_ring_f32, {}, 0}, 3 * 3 + 1);
}

// The ring sums oldest first as the shifting kernel does: the same bits, run after run (rank 3, 2 batches).
TEST(SvdfRingF32, GivesTheShiftingKernelsBits) {
  const Sizes s{2, 3, 2, 3, 4};
  const microaot_svdf_params_f32 p{s.batches, s.input_size, s.filters(), s.units, s.rank, s.memory, -1e30f, 1e30f};
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  std::vector<float> wf(s.filters() * s.input_size), wt(s.filters() * s.memory), bias(s.units);
  for (auto* v : {&wf, &wt, &bias}) {
    for (float& x : *v) x = dist(rng);
  }
  FloatKernel shifting{microaot_svdf_f32, nullptr, std::vector<float>(s.batches * s.filters() * s.memory), 0};
  FloatKernel ring{nullptr, microaot_svdf_ring_f32, shifting.state, 0};
  std::vector<float> scratch(s.batches * s.filters());
  for (int step = 0; step < 3 * s.memory + 2; ++step) {
    std::vector<float> in(s.batches * s.input_size), a(s.batches * s.units), b(a.size());
    for (float& x : in) x = dist(rng);
    ASSERT_NO_FATAL_FAILURE(shifting.run(p, in, wf, wt, bias.data(), a, scratch.data()));
    ASSERT_NO_FATAL_FAILURE(ring.run(p, in, wf, wt, bias.data(), b, scratch.data()));
    ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << "run " << step;
    ASSERT_EQ(ring.tflm_state(s.memory), shifting.state) << "run " << step;
  }
}

// One unit, one filter, input size 1, weights_feature 1, weights_time [0.5, 2]: out_t = 0.5 x_(t-1) + 2 x_t.
TEST(SvdfF32, IsADelayLineByHand) {
  const microaot_svdf_params_f32 p{1, 1, 1, 1, 1, 2, -1e30f, 1e30f};
  const float wf[] = {1.0f}, wt[] = {0.5f, 2.0f};
  float state[2] = {0.0f, 0.0f}, scratch[1], out[1];
  const float inputs[] = {1.0f, 3.0f, -2.0f}, expected[] = {2.0f, 6.5f, -2.5f};
  for (int t = 0; t < 3; ++t) {
    microaot_svdf_f32(&p, &inputs[t], wf, wt, nullptr, state, out, scratch);
    EXPECT_EQ(out[0], expected[t]) << t;
  }
  EXPECT_EQ(state[0], 3.0f);
  EXPECT_EQ(state[1], -2.0f);
}

}  // namespace
