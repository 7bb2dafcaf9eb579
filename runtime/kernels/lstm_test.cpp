// UNIDIRECTIONAL_SEQUENCE_LSTM kernels against a reference written here from TFLM's arithmetic (lstm_eval.cc,
// lstm_eval.h): per-gate weights with the zero points applied in the sums (not folded), TFLM's int16 sigmoid
// and tanh, its element-wise multiplications and its step walk by offsets. Shapes other than the model's:
// batches > 1, time-major and batch-major, 8x8, 16x8 and float, cell clipping, state carried across calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "microaot/kernels/lstm.h"
#include "multiplier_test_util.h"
#include "requantize_reference.h"

namespace {

constexpr int kGates = 4;  // i, f, g, o
constexpr int kCellGate = 2;

struct Shape {
  int batches, time_steps, input_size, state_size;
  bool time_major;
};

// An LSTM's data in TFLite's form: per-gate weights and biases, zero points, scales.
template <typename T, typename Bias>
struct Model {
  Shape shape;
  std::vector<std::vector<int8_t>> input_weights, recurrent_weights;  // [gate][state * input], [gate][state^2]
  std::vector<std::vector<Bias>> bias;                                // [gate][state]
  double input_scale, hidden_scale, cell_scale;
  int32_t input_zp, hidden_zp;
  std::vector<double> input_weight_scale, recurrent_weight_scale;  // [gate]
  int cell_power;                                                  // cell scale = 2^cell_power
  int16_t cell_clip;                                               // TFLM's quantized clip, -1 for none
};

std::vector<int16_t> sigmoid_table() {
  std::vector<int16_t> table(256);
  for (int i = 0; i < 256; ++i) {
    const long v = std::min(std::lround(65536.0 / (1.0 + std::exp(-i / 24.0))), 65535L);
    table[i] = static_cast<int16_t>(v - 32768);
  }
  return table;
}

uint32_t table_entry(const std::vector<int16_t>& table, uint32_t i) { return static_cast<uint32_t>(table[i] + 32768); }

// TFLM's reference_integer_ops::Logistic / Tanh on int16 with its power-of-two input handling.
int32_t rescale(int32_t x, int32_t multiplier, int left_shift) {
  if (multiplier == 0) {
    multiplier = 3 << left_shift;
    left_shift = 0;
  }
  const int32_t round = left_shift > 0 ? 1 << (left_shift - 1) : 0;
  return static_cast<int32_t>(requantize_reference::floor_div_pow2(int64_t{x} * multiplier + round, left_shift));
}

int16_t tflm_logistic(const std::vector<int16_t>& table, int32_t x) {
  const int32_t in = rescale(x, 0, 0);
  const uint32_t a = static_cast<uint32_t>(std::abs(in)), uh = a >> 9;
  uint32_t r = uh >= 255 ? 0x7FFFu << 10
                         : (table_entry(table, uh) << 9) + (a & 0x1ff) * (table_entry(table, uh + 1) - table_entry(table, uh));
  r = in >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
  return static_cast<int16_t>(r >> 10);
}

int16_t tflm_tanh(const std::vector<int16_t>& table, int32_t x, int32_t multiplier, int left_shift) {
  const int32_t in = rescale(x, multiplier, left_shift);
  const uint32_t a = static_cast<uint32_t>(std::abs(in)), uh = a >> 8;
  int32_t r = uh >= 255 ? 0xFFFF << 8
                        : static_cast<int32_t>((table_entry(table, uh) << 8) +
                                               (a & 0xFF) * (table_entry(table, uh + 1) - table_entry(table, uh)));
  r = in >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return static_cast<int16_t>(requantize_reference::floor_div_pow2(r, 8));
}

int32_t requant(int64_t acc, multiplier_test::Multiplier m, bool wide) {
  return wide ? requantize_reference::requantize_s64(acc, m.mantissa, m.shift)
              : requantize_reference::requantize_s32(static_cast<int32_t>(acc), m.mantissa, m.shift);
}

int32_t clamp16(int64_t v) { return static_cast<int32_t>(std::clamp<int64_t>(v, INT16_MIN, INT16_MAX)); }

// TFLM's integer LSTM, step by step.
template <typename T, typename Bias>
struct Reference {
  const Model<T, Bias>& m;
  std::vector<int16_t> table = sigmoid_table();
  static constexpr bool kWide = sizeof(Bias) == 8;

  multiplier_test::Multiplier gate_multiplier(double in_scale, double w_scale) const {
    return multiplier_test::quantize(in_scale * w_scale * 4096.0);
  }
  // One fully connected layer of one gate for `rows` rows, requantized to int16 Q3.12.
  std::vector<int32_t> fc(const T* x, int rows, int depth, int32_t zp, const std::vector<int8_t>& w, const Bias* bias,
                          multiplier_test::Multiplier mult) const {
    std::vector<int32_t> out;
    for (int r = 0; r < rows; ++r) {
      for (int u = 0; u < m.shape.state_size; ++u) {
        Bias acc = 0;
        for (int d = 0; d < depth; ++d) acc += w[u * depth + d] * (x[r * depth + d] - zp);
        if (bias) acc += bias[u];
        out.push_back(clamp16(requant(acc, mult, kWide)));
      }
    }
    return out;
  }
  int32_t mul(int32_t a, int32_t b, double scale, int32_t zp, int32_t lo, int32_t hi) const {
    const int32_t v = requantize_reference::requantize_s32(a * b, multiplier_test::quantize(scale).mantissa,
                                                           multiplier_test::quantize(scale).shift);
    return std::clamp(v + zp, lo, hi);
  }
  void step(const T* x, int rows, T* hidden, int16_t* cell, T* out) const {
    const int n = rows * m.shape.state_size;
    std::vector<std::vector<int32_t>> gate(kGates);
    for (int g = 0; g < kGates; ++g) {
      const auto a = fc(x, rows, m.shape.input_size, m.input_zp, m.input_weights[g], m.bias[g].data(),
                        gate_multiplier(m.input_scale, m.input_weight_scale[g]));
      const auto b = fc(hidden, rows, m.shape.state_size, m.hidden_zp, m.recurrent_weights[g], nullptr,
                        gate_multiplier(m.hidden_scale, m.recurrent_weight_scale[g]));
      for (int k = 0; k < n; ++k) {
        const int32_t sum = clamp16(a[k] + b[k]);
        gate[g].push_back(g == kCellGate ? tflm_tanh(table, sum, 0, 0) : tflm_logistic(table, sum));
      }
    }
    const double q15 = 1.0 / 32768, cs = std::ldexp(1.0, m.cell_power);
    int tanh_shift = 15 + m.cell_power - 3, tanh_multiplier = 0;
    if (tanh_shift < 0) {
      tanh_shift = -tanh_shift;
      tanh_multiplier = 3;
    }
    const int32_t lo = std::is_same<T, int8_t>::value ? INT8_MIN : INT16_MIN;
    const int32_t hi = std::is_same<T, int8_t>::value ? INT8_MAX : INT16_MAX;
    for (int k = 0; k < n; ++k) {
      const int32_t forgotten = mul(gate[1][k], cell[k], q15 * cs / cs, 0, INT16_MIN, INT16_MAX);
      const int32_t added = mul(gate[0][k], gate[kCellGate][k], q15 * q15 / cs, 0, INT16_MIN, INT16_MAX);
      int32_t c = clamp16(forgotten + added);
      if (m.cell_clip >= 0) c = std::clamp<int32_t>(c, -m.cell_clip, m.cell_clip);
      cell[k] = static_cast<int16_t>(c);
      const int32_t t = tflm_tanh(table, c, tanh_multiplier, tanh_shift);
      hidden[k] = static_cast<T>(mul(t, gate[3][k], q15 * q15 / m.hidden_scale, m.hidden_zp, lo, hi));
      out[k] = hidden[k];
    }
  }
  // TFLM's EvalLstm: offsets advance by one step's rows; batch-major moves the state to the next batch.
  void run(const std::vector<T>& input, std::vector<T>& hidden, std::vector<int16_t>& cell, std::vector<T>& output) const {
    const Shape& s = m.shape;
    const int rows = s.time_major ? s.batches : 1;
    int in_offset = 0, out_offset = 0;
    for (int b = 0; b < (s.time_major ? 1 : s.batches); ++b) {
      for (int t = 0; t < s.time_steps; ++t) {
        const int state_offset = s.time_major ? 0 : b * s.state_size;
        step(&input[in_offset], rows, &hidden[state_offset], &cell[state_offset], &output[out_offset]);
        in_offset += rows * s.input_size;
        out_offset += rows * s.state_size;
      }
    }
  }
};

template <typename T, typename Bias>
Model<T, Bias> random_model(Shape shape, std::mt19937& rng, bool clip) {
  Model<T, Bias> m;
  m.shape = shape;
  std::uniform_int_distribution<int> w(-127, 127), bias(-3000, 3000);
  std::uniform_real_distribution<double> scale(0.004, 0.03);
  for (int g = 0; g < kGates; ++g) {
    std::vector<int8_t> wi(shape.state_size * shape.input_size), wr(shape.state_size * shape.state_size);
    for (auto& v : wi) v = static_cast<int8_t>(w(rng));
    for (auto& v : wr) v = static_cast<int8_t>(w(rng));
    std::vector<Bias> b(shape.state_size);
    for (auto& v : b) v = static_cast<Bias>(bias(rng));
    m.input_weights.push_back(wi);
    m.recurrent_weights.push_back(wr);
    m.bias.push_back(b);
    m.input_weight_scale.push_back(scale(rng));
    m.recurrent_weight_scale.push_back(scale(rng));
  }
  const bool int8 = std::is_same<T, int8_t>::value;
  m.input_scale = int8 ? 0.05 : 0.0004;
  m.hidden_scale = int8 ? 1.0 / 128 : 1.0 / 32768;
  m.input_zp = int8 ? 3 : 0;
  m.hidden_zp = int8 ? -2 : 0;
  m.cell_power = -11;
  m.cell_scale = std::ldexp(1.0, m.cell_power);
  m.cell_clip = clip ? 1000 : -1;  // about 0.5: reached within a few steps
  return m;
}

// The kernel's params and constants for a model, laid out as the compiler lays them out.
template <typename T, typename Bias>
struct KernelSetup {
  std::vector<int8_t> input_weights, recurrent_weights;
  std::vector<Bias> bias;
  std::vector<int32_t> multipliers, shifts;
  std::vector<int16_t> table = sigmoid_table();
  microaot_lstm_params_q params{};

  explicit KernelSetup(const Model<T, Bias>& m) {
    for (int g = 0; g < kGates; ++g) {
      input_weights.insert(input_weights.end(), m.input_weights[g].begin(), m.input_weights[g].end());
      recurrent_weights.insert(recurrent_weights.end(), m.recurrent_weights[g].begin(), m.recurrent_weights[g].end());
    }
    fold(m.input_weights, m.input_zp, m.shape.input_size, &m.bias);
    fold(m.recurrent_weights, m.hidden_zp, m.shape.state_size, nullptr);
    for (int side = 0; side < 2; ++side) {
      for (int g = 0; g < kGates; ++g) {
        const double w = side == 0 ? m.input_weight_scale[g] : m.recurrent_weight_scale[g];
        const auto q = multiplier_test::quantize((side == 0 ? m.input_scale : m.hidden_scale) * w * 4096.0);
        multipliers.push_back(q.mantissa);
        shifts.push_back(q.shift);
      }
    }
    const double q15 = 1.0 / 32768;
    const auto forget = multiplier_test::quantize(q15), input = multiplier_test::quantize(q15 * q15 / m.cell_scale),
               hidden = multiplier_test::quantize(q15 * q15 / m.hidden_scale);
    const int left = 15 + m.cell_power - 3;
    const bool int8 = std::is_same<T, int8_t>::value;
    params = {m.shape.batches, m.shape.time_steps, m.shape.input_size, m.shape.state_size, m.shape.time_major ? 1 : 0,
              multipliers.data(), shifts.data(), forget.mantissa, forget.shift, input.mantissa, input.shift,
              hidden.mantissa, hidden.shift, m.hidden_zp, int8 ? INT8_MIN : INT16_MIN, int8 ? INT8_MAX : INT16_MAX,
              m.cell_clip, left < 0 ? 3 : 3 << left, left < 0 ? -left : 0, table.data()};
  }
  void fold(const std::vector<std::vector<int8_t>>& weights, int32_t zp, int depth,
            const std::vector<std::vector<Bias>>* given) {
    for (int g = 0; g < kGates; ++g) {
      for (size_t u = 0; u * depth < weights[g].size(); ++u) {
        Bias sum = given ? (*given)[g][u] : 0;
        for (int d = 0; d < depth; ++d) sum -= static_cast<Bias>(zp) * weights[g][u * depth + d];
        bias.push_back(sum);
      }
    }
  }
};

template <typename T, typename Bias, typename Fn>
void expect_kernel_matches_reference(Shape shape, bool clip, Fn kernel, unsigned seed) {
  std::mt19937 rng(seed);
  Model<T, Bias> m = random_model<T, Bias>(shape, rng, clip);
  KernelSetup<T, Bias> setup(m);
  const int steps = shape.batches * shape.time_steps;
  std::uniform_int_distribution<int> value(std::is_same<T, int8_t>::value ? -128 : -20000,
                                           std::is_same<T, int8_t>::value ? 127 : 20000);
  std::vector<T> input(steps * shape.input_size);
  for (auto& v : input) v = static_cast<T>(value(rng));
  const size_t state = static_cast<size_t>(shape.batches * shape.state_size);
  std::vector<T> hidden(state, static_cast<T>(m.hidden_zp)), ref_hidden = hidden;
  std::vector<int16_t> cell(state, 0), ref_cell = cell;
  std::vector<T> out(steps * shape.state_size), ref_out = out;
  std::vector<int16_t> scratch(4 * state);
  Reference<T, Bias> ref{m};
  for (int call = 0; call < 2; ++call) {  // the second call starts from the state the first left
    kernel(&setup.params, input.data(), setup.input_weights.data(), setup.recurrent_weights.data(), setup.bias.data(),
           hidden.data(), cell.data(), out.data(), scratch.data());
    ref.run(input, ref_hidden, ref_cell, ref_out);
    ASSERT_EQ(out, ref_out) << "call " << call;
    ASSERT_EQ(hidden, ref_hidden) << "call " << call;
    ASSERT_EQ(cell, ref_cell) << "call " << call;
  }
  EXPECT_NE(cell, std::vector<int16_t>(state, 0));  // the state moved: the comparison saw real values
}

TEST(LstmS8, TimeMajorBatchesMatchTflmArithmetic) {
  expect_kernel_matches_reference<int8_t, int32_t>({3, 4, 5, 6, true}, false, microaot_unidirectional_sequence_lstm_s8, 1);
}

TEST(LstmS8, BatchMajorWithCellClipMatchesTflmArithmetic) {
  expect_kernel_matches_reference<int8_t, int32_t>({2, 5, 7, 4, false}, true, microaot_unidirectional_sequence_lstm_s8, 2);
}

TEST(LstmS16, SixteenByEightBothLayoutsMatchTflmArithmetic) {
  expect_kernel_matches_reference<int16_t, int64_t>({2, 3, 5, 4, true}, false, microaot_unidirectional_sequence_lstm_s16, 3);
  expect_kernel_matches_reference<int16_t, int64_t>({3, 2, 4, 5, false}, true, microaot_unidirectional_sequence_lstm_s16, 4);
}

// Float: one hand-checkable step (every gate's pre-activation 0 except where a weight says otherwise), and the
// layouts agreeing: batch-major input transposed to time-major gives the transposed output.
float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

TEST(LstmF32, OneUnitStepIsTheLstmFormula) {
  // One batch, one step, input 1 value, state 1: gates i, f, g, o = sigmoid(0.5), sigmoid(1), tanh(-1), sigmoid(2)
  // from input weights [0.5, 1, -1, 2] times input 1, recurrent weights 0 and bias 0; the cell starts at 0.25.
  const float in[1] = {1.0f}, wi[4] = {0.5f, 1.0f, -1.0f, 2.0f}, wr[4] = {0, 0, 0, 0}, bias[8] = {0};
  float hidden[1] = {0.3f}, cell[1] = {0.25f}, out[1], scratch[4];
  const microaot_lstm_params_f32 p = {1, 1, 1, 1, 1, 0.0f};
  microaot_unidirectional_sequence_lstm_f32(&p, in, wi, wr, bias, hidden, cell, out, scratch);
  const float c = sigmoid(1.0f) * 0.25f + sigmoid(0.5f) * std::tanh(-1.0f);
  EXPECT_NEAR(cell[0], c, 1e-6);
  EXPECT_NEAR(out[0], sigmoid(2.0f) * std::tanh(c), 1e-6);
  EXPECT_EQ(hidden[0], out[0]);
}

TEST(LstmF32, BatchMajorAndTimeMajorAgreeAndClip) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int B = 2, T = 3, I = 3, S = 2;
  std::vector<float> wi(4 * S * I), wr(4 * S * S), bias(8 * S, 0.0f), in_bm(B * T * I);
  for (auto* v : {&wi, &wr, &in_bm}) {
    for (float& x : *v) x = 2.0f * u(rng);
  }
  for (int k = 0; k < 4 * S; ++k) bias[k] = u(rng);
  std::vector<float> in_tm(in_bm.size());
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t < T; ++t) std::copy_n(&in_bm[(b * T + t) * I], I, &in_tm[(t * B + b) * I]);
  }
  const float clip = 0.5f;
  const microaot_lstm_params_f32 bm = {B, T, I, S, 0, clip}, tm = {B, T, I, S, 1, clip};
  std::vector<float> h1(B * S, 0.0f), c1(B * S, 0.0f), h2 = h1, c2 = c1, o1(B * T * S), o2(o1.size()), scratch(4 * B * S);
  microaot_unidirectional_sequence_lstm_f32(&bm, in_bm.data(), wi.data(), wr.data(), bias.data(), h1.data(), c1.data(),
                                            o1.data(), scratch.data());
  microaot_unidirectional_sequence_lstm_f32(&tm, in_tm.data(), wi.data(), wr.data(), bias.data(), h2.data(), c2.data(),
                                            o2.data(), scratch.data());
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t < T; ++t) {
      for (int s = 0; s < S; ++s) EXPECT_EQ(o1[(b * T + t) * S + s], o2[(t * B + b) * S + s]);
    }
  }
  EXPECT_EQ(h1, h2);
  EXPECT_EQ(c1, c2);
  for (float c : c1) EXPECT_LE(std::fabs(c), clip);
}

}  // namespace
