#include "ops/mul_folded.h"

#include <cmath>
#include <cstdlib>

#include "kernels/select_kernels.h"
#include "microaot/internal/dsp_fold.h"
#include "ops/packed_weights.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

constexpr int kSearch = 2;  // slopes tried: the rounded real one +- kSearch
constexpr int64_t kStep = int64_t{1} << 16;

int32_t term(int64_t m, int32_t q) { return static_cast<int32_t>((m * q) >> 8); }

// The portable kernel's output for q of the streaming input against v of the broadcast one.
int32_t reference(const microaot_mul_params_q& p, int broadcast, int32_t v, int32_t q) {
  return broadcast == 0 ? microaot_mul_quantized_element(&p, v, q) : microaot_mul_quantized_element(&p, q, v);
}

// An offset bias under which slope m gives every q its reference output (as near `ideal` as the bounds allow,
// every sum within int32), proven on the kernel's own arithmetic; false when there is none.
bool fit_bias(const std::vector<int32_t>& want, int64_t m, int64_t ideal, const microaot_dsp_fold& fold, int32_t* bias) {
  int64_t lo = INT64_MIN, hi = INT64_MAX, t_min = 0, t_max = 0;
  for (int32_t q = -128; q < 128; ++q) {
    const int64_t f = want[static_cast<size_t>(q + 128)], t = term(m, q);
    if (f > fold.lo) lo = std::max(lo, f * kStep - t);  // floor(sum / 2^16) >= f
    if (f < fold.hi) hi = std::min(hi, (f + 1) * kStep - 1 - t);  // and <= f
    t_min = std::min(t_min, t), t_max = std::max(t_max, t);
  }
  if (lo > hi) return false;
  const int64_t chosen = std::min(std::max(ideal, lo), hi) + fold.offset;
  if (chosen + t_min < INT32_MIN || chosen + t_max > INT32_MAX) return false;
  *bias = static_cast<int32_t>(chosen);
  for (int32_t q = -128; q < 128; ++q) {
    if (microaot_dsp_fold_element(static_cast<int32_t>(m), q, *bias, fold.floor4, fold.lo4, 1) != want[static_cast<size_t>(q + 128)]) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<int32_t> fit_mul_folded_forms(const microaot_mul_params_q& p, int broadcast, std::string* why,
                                          const std::vector<int8_t>& values) {
  if (p.activation_min < -128 || p.activation_max > 127 || p.activation_min > p.activation_max) {
    *why = "the clamp is outside int8";
    return {};
  }
  const microaot_dsp_fold fold = microaot_dsp_fold_of(p.activation_min, p.activation_max);
  const int32_t v_offset = broadcast == 0 ? p.input1_offset : p.input2_offset;
  const int32_t q_offset = broadcast == 0 ? p.input2_offset : p.input1_offset;
  const double real = std::ldexp(static_cast<double>(p.output_multiplier), p.output_shift - 31);
  std::vector<int32_t> forms(513);
  std::vector<int32_t> want(256);
  std::vector<bool> needed(256, values.empty());
  for (int8_t v : values) needed[static_cast<size_t>(v + 128)] = true;
  for (int32_t v = -128; v < 128; ++v) {
    if (!needed[static_cast<size_t>(v + 128)]) continue;
    const double alpha = (v + v_offset) * real;  // output units per unit of q
    const double m_real = std::ldexp(alpha, 24), bias_real = std::ldexp(q_offset * alpha + p.output_offset + 0.5, 16);
    if (std::fabs(m_real) + kSearch >= 2147483647.0 || std::fabs(bias_real) >= 2147483647.0) {
      *why = "the slope for input " + std::to_string(broadcast + 1) + " = " + std::to_string(v) + " is beyond int32";
      return {};
    }
    for (int32_t q = -128; q < 128; ++q) want[static_cast<size_t>(q + 128)] = reference(p, broadcast, v, q);
    bool found = false;
    for (int d = 0; d <= 2 * kSearch && !found; ++d) {  // 0, +1, -1, +2, -2
      const int64_t m = std::llround(m_real) + (d % 2 == 1 ? (d + 1) / 2 : -(d / 2));
      int32_t bias = 0;
      if (fit_bias(want, m, std::llround(bias_real), fold, &bias)) {
        forms[static_cast<size_t>(v + 128)] = static_cast<int32_t>(m);
        forms[static_cast<size_t>(256 + v + 128)] = bias;
        found = true;
      }
    }
    if (!found) {
      *why = "no slope and bias give every output for input " + std::to_string(broadcast + 1) + " = " + std::to_string(v);
      return {};
    }
  }
  forms[512] = broadcast;
  return forms;
}

namespace {

int32_t integer_of(const KernelCall& call, const char* field) {
  const ParamValue* bound = call.params.find(field);
  MICROAOT_CHECK(bound != nullptr, std::string("MUL's lowering did not set ") + field);
  return static_cast<int32_t>(bound->integer);
}

std::vector<int32_t> integers_of(const KernelCall& call, const char* field) {
  const ParamValue* bound = call.params.find(field);
  MICROAOT_CHECK(bound != nullptr, std::string("MUL's lowering did not set ") + field);
  return std::vector<int32_t>(bound->integers.begin(), bound->integers.end());
}

microaot_mul_params_q scalar_params(const KernelCall& call) {
  microaot_mul_params_q p{};
  p.input1_offset = integer_of(call, "input1_offset");
  p.input2_offset = integer_of(call, "input2_offset");
  p.output_multiplier = integer_of(call, "output_multiplier");
  p.output_shift = integer_of(call, "output_shift");
  p.output_offset = integer_of(call, "output_offset");
  p.activation_min = integer_of(call, "activation_min");
  p.activation_max = integer_of(call, "activation_max");
  return p;
}

}  // namespace

void use_mul_folded_form(KernelCall& call, const Target& target, const std::vector<std::vector<uint8_t>>& constants) {
  if (call.stem != "mul_s8" || !has_specialisation_for(call.stem, target) || target_runs_isa(target, "mve")) return;
  const int32_t num_dims = integer_of(call, "num_dims");
  if (num_dims == 0) return;  // both operands per element: the DSP mul_s8
  const std::vector<int32_t> shape = integers_of(call, "output_shape"), strides1 = integers_of(call, "input1_strides"),
                             strides2 = integers_of(call, "input2_strides");
  int broadcast = 0;
  const int kind = microaot_broadcast_fold_kind(num_dims, shape.data(), strides1.data(), strides2.data(), &broadcast);
  if (kind != MICROAOT_FOLD_ROWS && kind != MICROAOT_FOLD_CHANNELS) return;
  std::string why;
  std::vector<int8_t> values;
  if (static_cast<size_t>(broadcast) < constants.size()) {
    for (uint8_t byte : constants[static_cast<size_t>(broadcast)]) values.push_back(static_cast<int8_t>(byte));
  }
  const std::vector<int32_t> forms = fit_mul_folded_forms(scalar_params(call), broadcast, &why, values);
  if (forms.empty()) {
    call.specialisation = "general rescaling (mul_s8): no folded form: " + why;
    return;
  }
  call.derived.push_back(int32_constant("mul_s8_folded_forms", forms));
  call.args.insert(call.args.begin() + 2, derived_arg(static_cast<int>(call.derived.size()) - 1));
  call.stem = "mul_s8_folded";
  call.specialisation = std::string("input ") + std::to_string(broadcast + 1) +
                        (kind == MICROAOT_FOLD_ROWS ? "'s value folded into each row's slope and bias"
                                                    : "'s channels folded into a table of slopes and biases") +
                        ", 1 SMLAW per element, exact on all 65536 input pairs";
}

}  // namespace microaot
