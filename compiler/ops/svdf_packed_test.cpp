// The packed SVDF ring kernels over the constants the chooser derives (a Cortex-M4 target), against the
// portable ring kernels over the model's own tensors: random layers (odd input sizes, filters not a multiple of
// four, ranks 1 to 3, memories 1 to 9, with and without a bias, int8 states with a zero point), three runs in a
// row from a random ring position, outputs, state and position byte for byte; and the guard's refusals. On the
// host the kernels run microaot/internal/dsp.h's C definitions; the Cortex-M tests run the instructions.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/params_struct.h"
#include "microaot/kernels/packed.h"
#include "microaot/kernels/svdf.h"
#include "ops/lowering_test_util.h"
#include "ops/reduce_test_util.h"
#include "target/target.h"

namespace microaot {
namespace {

struct Sizes {
  int32_t batches, input, units, rank, memory;
  bool bias;
};

template <typename T>
std::vector<uint8_t> random_bytes(std::mt19937& rng, size_t count, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<uint8_t> bytes(count * sizeof(T));
  for (size_t k = 0; k < count; ++k) {
    const T v = static_cast<T>(d(rng));
    std::memcpy(&bytes[k * sizeof(T)], &v, sizeof(T));
  }
  return bytes;
}

// An int8 SVDF whose state (type `state`) only it sees: a ring. Constant data random, the weights_time range
// `time_range`.
Graph random_svdf(std::mt19937& rng, const Sizes& s, DType state, int time_range) {
  const int32_t filters = s.units * s.rank;
  const auto spec = [](std::vector<int32_t> shape, float scale, int64_t zp) { return TensorSpec{std::move(shape), scale, zp}; };
  const int64_t state_zp = state == DType::kInt8 ? static_cast<int64_t>(rng() % 21) - 10 : 0;
  Graph g;
  g.tensors = {spec_tensor("in", DType::kInt8, spec({s.batches, s.input}, 0.05f, static_cast<int64_t>(rng() % 255) - 128)),
               spec_tensor("wf", DType::kInt8, spec({filters, s.input}, 0.0078f, 0)),
               spec_tensor("wt", state, spec({filters, s.memory}, 0.00012f, 0)),
               spec_tensor("bias", DType::kInt32, spec({s.units}, 3.6e-8f, 0)),
               spec_tensor("state", state, spec({s.batches, s.memory * filters}, 0.0003f, state_zp)),
               spec_tensor("out", DType::kInt8, spec({s.batches, s.units}, 0.09f, 4))};
  g.tensors[1].data = random_bytes<int8_t>(rng, static_cast<size_t>(filters * s.input), -128, 127);
  g.tensors[2].data = state == DType::kInt8 ? random_bytes<int8_t>(rng, static_cast<size_t>(filters * s.memory), -128, 127)
                                            : random_bytes<int16_t>(rng, static_cast<size_t>(filters * s.memory),
                                                                    -time_range, time_range);
  g.tensors[3].data = random_bytes<int32_t>(rng, static_cast<size_t>(s.units), -100000, 100000);
  for (int k : {1, 2, 3}) g.tensors[static_cast<size_t>(k)].is_constant = true;
  g.tensors[4].is_persistent = true;
  g.ops.push_back(Op{OpKind::Svdf, 0, 3, {0, 1, 2, s.bias ? 3 : kNoTensor, 4}, {5}, {}});
  g.inputs = {0};
  g.outputs = {5};
  read_table_options(g, tflite::BuiltinOptions::SVDFOptions, [&](auto& fbb) {
    return tflite::CreateSVDFOptions(fbb, s.rank, tflite::ActivationFunctionType::NONE).Union();
  });
  return g;
}

template <typename State>
struct Run {
  std::vector<State> state;
  int32_t position;
};

template <typename State, typename Portable, typename Packed>
void expect_packed_matches_portable(DType type, int time_range, Portable portable, Packed packed) {
  std::mt19937 rng(type == DType::kInt8 ? 11 : 12);
  for (int trial = 0; trial < 63; ++trial) {
    // the last trials' input rows are longer than one chunk of the packed layout (MICROAOT_PACKED_CHUNK)
    const int32_t input = trial < 60 ? 1 : MICROAOT_PACKED_CHUNK - 40 + 300 * (trial - 60);
    const Sizes s{1 + static_cast<int32_t>(rng() % 2), input + static_cast<int32_t>(rng() % 23),
                  1 + static_cast<int32_t>(rng() % 9), 1 + static_cast<int32_t>(rng() % 3),
                  1 + static_cast<int32_t>(rng() % 9), rng() % 4 != 0};
    Graph g = random_svdf(rng, s, type, time_range);
    const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
    const std::string what = "trial " + std::to_string(trial) + " input " + std::to_string(s.input) + " units " +
                             std::to_string(s.units) + " rank " + std::to_string(s.rank) + " memory " +
                             std::to_string(s.memory);
    ASSERT_EQ(call.info().stem, std::string(type == DType::kInt8 ? "svdf_ring_s8_s8_packed" : "svdf_ring_s8_s16_packed"))
        << what << ": " << call.specialisation;
    const microaot_svdf_params_q params = MICROAOT_PARAMS_STRUCT(svdf_params_q, call.params);
    const auto constant = [&](int arg) { return g.tensor(call.args[static_cast<size_t>(arg)]).data; };
    const std::vector<uint8_t> features = constant(1), time = constant(2), constants = constant(3);
    const size_t state_size = static_cast<size_t>(s.batches * s.units * s.rank * s.memory);
    const std::vector<uint8_t> start = random_bytes<State>(rng, state_size, type == DType::kInt8 ? -128 : -4000,
                                                           type == DType::kInt8 ? 127 : 4000);
    Run<State> a{std::vector<State>(state_size), static_cast<int32_t>(rng() % static_cast<uint32_t>(s.memory))}, b = a;
    std::memcpy(a.state.data(), start.data(), start.size());
    b.state = a.state;
    std::vector<int32_t> scratch_a(static_cast<size_t>(s.batches * (s.units * s.rank + s.units)));
    std::vector<int32_t> scratch_b(MICROAOT_SVDF_PACKED_SCRATCH_BYTES(s.input) / 4);
    const int32_t* bias = s.bias ? reinterpret_cast<const int32_t*>(g.tensors[3].data.data()) : nullptr;
    for (int run = 0; run < 3; ++run) {
      const std::vector<uint8_t> input = random_bytes<int8_t>(rng, static_cast<size_t>(s.batches * s.input), -128, 127);
      const auto* x = reinterpret_cast<const int8_t*>(input.data());
      std::vector<int8_t> out_a(static_cast<size_t>(s.batches * s.units)), out_b(out_a.size(), 99);
      ASSERT_EQ(portable(&params, x, reinterpret_cast<const int8_t*>(g.tensors[1].data.data()),
                         reinterpret_cast<const State*>(g.tensors[2].data.data()), bias, a.state.data(), &a.position,
                         out_a.data(), scratch_a.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(packed(&params, x, reinterpret_cast<const int32_t*>(features.data()),
                       reinterpret_cast<const State*>(time.data()), reinterpret_cast<const int32_t*>(constants.data()),
                       b.state.data(), &b.position, out_b.data(), scratch_b.data()),
                MICROAOT_STATUS_OK);
      ASSERT_EQ(out_b, out_a) << what << " run " << run;
      ASSERT_EQ(b.state, a.state) << what << " run " << run;
      ASSERT_EQ(b.position, a.position) << what << " run " << run;
    }
  }
}

TEST(SvdfPacked, Int8StateMatchesThePortableRing) {
  expect_packed_matches_portable<int8_t>(DType::kInt8, 127, microaot_svdf_ring_s8_s8, microaot_svdf_ring_s8_s8_packed);
}

TEST(SvdfPacked, Int16StateMatchesThePortableRing) {
  expect_packed_matches_portable<int16_t>(DType::kInt16, 3000, microaot_svdf_ring_s8_s16,
                                          microaot_svdf_ring_s8_s16_packed);
}

// Without the DSP extension the ring keeps the portable kernel; a position outside the ring or a params struct
// outside the fit rule (a shift, a multiplier that QuantizeMultiplier does not give) is refused with nothing
// written.
TEST(SvdfPacked, PortableWithoutDspAndRefusesWhatItCannotCompute) {
  std::mt19937 rng(3);
  Graph g = random_svdf(rng, {1, 5, 3, 2, 4, true}, DType::kInt8, 127);
  Graph plain = g;
  EXPECT_EQ(lower_in_place_for_test(plain, parse_target("cortex-m4+nodsp")).info().stem, "svdf_ring_s8_s8");
  const KernelCall call = lower_in_place_for_test(g, parse_target("cortex-m4"));
  microaot_svdf_params_q params = MICROAOT_PARAMS_STRUCT(svdf_params_q, call.params);
  const auto data = [&](int arg) { return g.tensor(call.args[static_cast<size_t>(arg)]).data.data(); };
  const std::vector<int8_t> input(5, 1);
  std::vector<int8_t> state(24, 7), out(3, 5);
  std::vector<int32_t> scratch(2);
  const microaot_svdf_params_q fitting = params;
  for (int broken = 0; broken < 3; ++broken) {
    int32_t position = broken == 0 ? 4 : 0;
    params = fitting;
    if (broken == 1) params.output_shift = 32;
    if (broken == 2) params.feature_multiplier = 1 << 20;  // below 2^30: outside the narrow step's argument
    EXPECT_EQ(microaot_svdf_ring_s8_s8_packed(&params, input.data(),
                                              reinterpret_cast<const int32_t*>(data(1)), reinterpret_cast<const int8_t*>(data(2)),
                                              reinterpret_cast<const int32_t*>(data(3)), state.data(), &position,
                                              out.data(), scratch.data()),
              MICROAOT_STATUS_VALUE_OUT_OF_RANGE)
        << broken;
    EXPECT_EQ(state, std::vector<int8_t>(24, 7));
    EXPECT_EQ(out, std::vector<int8_t>(3, 5));
  }
}

}  // namespace
}  // namespace microaot
