// The packed int8 LSTM kernels (microaot/kernels/lstm.h) over the weights the compiler packs, in every form,
// against the portable kernel over the stacked int8 weights: random layers (odd sizes, both layouts, several
// batches and steps, with and without cell clipping, gate scales giving left and right shifts, sums that
// saturate), outputs and both states byte for byte; and the guard's refusal. On the host the kernels run
// microaot/internal/dsp.h's C definitions; the Cortex-M tests run the instructions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "microaot/kernels/lstm.h"
#include "microaot/kernels/packed.h"
#include "ops/packed_weights.h"
#include "ops/quant_math.h"
#include "ops/unary.h"

namespace microaot {
namespace {

struct Layer {
  int32_t batches, steps, input, state;
  bool time_major;
  std::vector<int32_t> multipliers, shifts;  // the params' gate arrays
  std::vector<int16_t> table;
  microaot_lstm_params_q params{};
  std::vector<int8_t> input_weights, recurrent_weights, x, hidden;
  std::vector<int32_t> bias;
  std::vector<int16_t> cell;
};

template <typename T>
std::vector<T> random_values(std::mt19937& rng, size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(n);
  for (T& e : v) e = static_cast<T>(d(rng));
  return v;
}

void set_multiplier(double real, int32_t& multiplier, int32_t& shift) {
  const QuantizedMultiplier m = quantize_multiplier(real);
  multiplier = m.multiplier;
  shift = m.shift;
}

// A layer as the handler lowers one: the gates' scales to Q3.12 from 0.05 to 40 (left and right shifts), the
// cell a power of two from 2^-15 to 2^-8, TFLM's tanh rescale of it, the LOGISTIC/TANH table.
Layer random_layer(std::mt19937& rng, int32_t min_input = 1) {
  std::uniform_int_distribution<int> pick(0, 1 << 20);
  Layer l;
  l.batches = 1 + pick(rng) % 3, l.steps = 1 + pick(rng) % 5, l.input = min_input + pick(rng) % 37;
  l.state = 1 + pick(rng) % 13, l.time_major = pick(rng) % 2 == 1;
  std::uniform_real_distribution<double> scale(0.05, 40.0);
  l.multipliers.resize(8), l.shifts.resize(8);
  for (int k = 0; k < 8; ++k) set_multiplier(scale(rng), l.multipliers[k], l.shifts[k]);
  l.multipliers.insert(l.multipliers.end(), l.shifts.begin(), l.shifts.end());
  for (int64_t v : sigmoid_table()) l.table.push_back(static_cast<int16_t>(v));
  microaot_lstm_params_q& p = l.params;
  p.batches = l.batches, p.time_steps = l.steps, p.input_size = l.input, p.state_size = l.state;
  p.time_major = l.time_major ? 1 : 0;
  p.gate_multiplier = l.multipliers.data();
  p.gate_shift = l.multipliers.data() + 8;
  p.sigmoid_table = l.table.data();
  const int power = -8 - pick(rng) % 8;
  const double cell_scale = std::ldexp(1.0, power), hidden_scale = 0.002 + 0.0002 * (pick(rng) % 100);
  set_multiplier(std::ldexp(1.0, -15), p.forget_multiplier, p.forget_shift);
  set_multiplier(std::ldexp(1.0, -30) / cell_scale, p.input_multiplier, p.input_shift);
  set_multiplier(std::ldexp(1.0, -30) / hidden_scale, p.hidden_multiplier, p.hidden_shift);
  p.hidden_zero_point = pick(rng) % 21 - 10, p.hidden_min = INT8_MIN, p.hidden_max = INT8_MAX;
  p.cell_clip = pick(rng) % 2 == 0 ? -1 : pick(rng) % 32768;
  const int left = 15 + power - 3;
  p.cell_tanh_multiplier = left < 0 ? 3 : 3 << left, p.cell_tanh_shift = left < 0 ? -left : 0;
  const size_t units = 4 * static_cast<size_t>(l.state), rows = static_cast<size_t>(l.batches);
  l.input_weights = random_values<int8_t>(rng, units * l.input, -128, 127);
  l.recurrent_weights = random_values<int8_t>(rng, units * l.state, -128, 127);
  l.bias = random_values<int32_t>(rng, 2 * units, -40000, 40000);
  l.x = random_values<int8_t>(rng, rows * l.steps * l.input, -128, 127);
  l.hidden = random_values<int8_t>(rng, rows * l.state, -128, 127);
  l.cell = random_values<int16_t>(rng, rows * l.state, -32768, 32767);
  return l;
}

struct Result {
  std::vector<int8_t> output, hidden;
  std::vector<int16_t> cell;
};

Result run_portable(const Layer& l) {
  Result r{std::vector<int8_t>(l.x.size() / l.input * l.state), l.hidden, l.cell};
  std::vector<int16_t> scratch(4 * static_cast<size_t>(l.batches * l.state));
  microaot_unidirectional_sequence_lstm_s8(&l.params, l.x.data(), l.input_weights.data(), l.recurrent_weights.data(),
                                           l.bias.data(), r.hidden.data(), r.cell.data(), r.output.data(),
                                           scratch.data());
  return r;
}

// The biases the kernel of `form` takes: the raw form's for its own (each side's, ops/packed_weights.h), empty
// where that form is not exact for the layer.
std::vector<int32_t> biases_for(const Layer& l, PackedWeights form) {
  if (form != PackedWeights::kInt8Raw) return l.bias;
  const int32_t units = 4 * l.state;
  std::vector<int32_t> raw;
  for (int side = 0; side < 2; ++side) {
    const std::vector<int32_t> part = raw_form_biases(
        std::vector<int32_t>(l.bias.begin() + side * units, l.bias.begin() + (side + 1) * units),
        side == 0 ? l.input_weights : l.recurrent_weights, units, side == 0 ? l.input : l.state);
    if (part.empty()) return {};
    raw.insert(raw.end(), part.begin(), part.end());
  }
  return raw;
}

Result run_packed(const Layer& l, PackedWeights form, const std::vector<int32_t>& bias, microaot_status* status) {
  Result r{std::vector<int8_t>(l.x.size() / l.input * l.state), l.hidden, l.cell};
  const int32_t units = 4 * l.state, rows = l.time_major ? l.batches : 1;
  const std::vector<int32_t> in = pack_whole_rows(l.input_weights, units, l.input, form);
  const std::vector<int32_t> rec = pack_whole_rows(l.recurrent_weights, units, l.state, form);
  std::vector<int32_t> scratch(MICROAOT_LSTM_PACKED_SCRATCH_BYTES(rows, l.input, l.state) / 4 + 1);
  const auto kernel = form == PackedWeights::kInt16    ? microaot_unidirectional_sequence_lstm_s8_packed_w16
                      : form == PackedWeights::kInt8Raw ? microaot_unidirectional_sequence_lstm_s8_packed_raw
                                                        : microaot_unidirectional_sequence_lstm_s8_packed;
  *status = kernel(&l.params, l.x.data(), in.data(), rec.data(), bias.data(), r.hidden.data(), r.cell.data(),
                   r.output.data(), scratch.data());
  return r;
}

TEST(LstmPacked, EveryFormMatchesThePortableKernel) {
  std::mt19937 rng(31);
  int raw_layers = 0;
  for (int trial = 0; trial < 156; ++trial) {
    // the last trials' input rows are longer than one chunk of the packed layout (MICROAOT_PACKED_CHUNK)
    const Layer l = random_layer(rng, trial < 150 ? 1 : MICROAOT_PACKED_CHUNK - 20 + 300 * (trial - 150));
    const Result expected = run_portable(l);
    for (PackedWeights form : {PackedWeights::kInt8, PackedWeights::kInt16, PackedWeights::kInt8Raw}) {
      const std::vector<int32_t> bias = biases_for(l, form);
      if (bias.empty()) continue;  // the raw form not exact for the layer: the compiler keeps the int8 words
      raw_layers += form == PackedWeights::kInt8Raw;
      microaot_status status = MICROAOT_STATUS_OK;
      const Result got = run_packed(l, form, bias, &status);
      const std::string what = "trial " + std::to_string(trial) + " form " + std::to_string(static_cast<int>(form)) +
                               " batches " + std::to_string(l.batches) + " steps " + std::to_string(l.steps) +
                               " input " + std::to_string(l.input) + " state " + std::to_string(l.state) +
                               (l.time_major ? " time-major" : "");
      ASSERT_EQ(status, MICROAOT_STATUS_OK) << what;
      ASSERT_EQ(got.output, expected.output) << what;
      ASSERT_EQ(got.hidden, expected.hidden) << what;
      ASSERT_EQ(got.cell, expected.cell) << what;
    }
  }
  EXPECT_GE(raw_layers, 60);  // the others have a weight -128 after a negative one, which TFLite never writes
}

// Gates with right shifts around the narrow step's limit (14), multipliers on both sides of 2^30 and sums near the
// int32 ends, whose high parts saturate: every form against the portable kernel (the raw form is not exact for such sums: not taken).
TEST(LstmPacked, GateRightShiftsAroundTheNarrowStepsLimit) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    Layer l = random_layer(rng);
    // odd trials: multipliers below 2^30, as only a blob has them (the general step)
    const int32_t multiplier = (trial % 2 == 0 ? 1 << 30 : 1 << 28) + trial * 4099;
    for (int k = 0; k < 8; ++k) l.multipliers[k] = multiplier, l.multipliers[8 + k] = -11 - (k + trial) % 5;
    l.bias = random_values<int32_t>(rng, l.bias.size(), INT32_MIN + (1 << 21), INT32_MAX - (1 << 21));
    const Result expected = run_portable(l);
    for (PackedWeights form : {PackedWeights::kInt8, PackedWeights::kInt16}) {
      microaot_status status = MICROAOT_STATUS_OK;
      const Result got = run_packed(l, form, l.bias, &status);
      const std::string what = "trial " + std::to_string(trial) + " form " + std::to_string(static_cast<int>(form));
      ASSERT_EQ(status, MICROAOT_STATUS_OK) << what;
      ASSERT_EQ(got.output, expected.output) << what;
      ASSERT_EQ(got.hidden, expected.hidden) << what;
      ASSERT_EQ(got.cell, expected.cell) << what;
    }
  }
}

// A blob's params outside the fit rule (a multiplier of INT32_MIN, a tanh rescale beyond 32 bits): refused,
// nothing written.
TEST(LstmPacked, RefusesParamsOutsideItsFitRule) {
  std::mt19937 rng(7);
  for (int broken = 0; broken < 3; ++broken) {
    Layer l = random_layer(rng);
    if (broken == 0) l.multipliers[3] = INT32_MIN;
    if (broken == 1) l.params.cell_tanh_multiplier = 1 << 15;
    if (broken == 2) l.params.hidden_shift = -32;
    microaot_status status = MICROAOT_STATUS_OK;
    const Result got = run_packed(l, PackedWeights::kInt8, l.bias, &status);
    EXPECT_EQ(status, MICROAOT_STATUS_VALUE_OUT_OF_RANGE) << broken;
    EXPECT_EQ(got.hidden, l.hidden) << broken;
    EXPECT_EQ(got.cell, l.cell) << broken;
    EXPECT_EQ(got.output, std::vector<int8_t>(got.output.size())) << broken;
  }
}

}  // namespace
}  // namespace microaot
