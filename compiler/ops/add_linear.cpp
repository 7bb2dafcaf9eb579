#include "ops/add_linear.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/select_kernels.h"
#include "ops/packed_weights.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

constexpr int kValues = 256;  // int8 values, -128 .. 127
constexpr int64_t kStep = int64_t{1} << MICROAOT_ADD_LINEAR_SHIFT;
constexpr int kSearch = 2;  // slopes tried: the rounded real ones +- kSearch

// The portable kernel's output for every pair: [(q1 + 128) * 256 + q2 + 128].
std::vector<int32_t> reference_outputs(const microaot_add_params_q& p, bool subtract) {
  std::vector<int32_t> out;
  out.reserve(kValues * kValues);
  for (int32_t a = -128; a < 128; ++a) {
    for (int32_t b = -128; b < 128; ++b) out.push_back(subtract ? MICROAOT_SUB_QUANTIZED(&p, a, b) : MICROAOT_ADD_QUANTIZED(&p, a, b));
  }
  return out;
}

// The real value one unit of input k adds to the output before rounding (x 2^left_shift, the input's then
// the output's multiplier).
double slope(const microaot_add_params_q& p, int32_t multiplier, int32_t shift) {
  return std::ldexp(static_cast<double>(multiplier) * p.output_multiplier, p.left_shift + shift + p.output_shift - 62);
}

std::vector<int64_t> terms(int64_t m) {
  std::vector<int64_t> t;
  for (int32_t q = -128; q < 128; ++q) t.push_back(microaot_add_linear_term(static_cast<int32_t>(m), q));
  return t;
}

// A bias for the slopes m1, m2 under which every pair gives its reference output, as near `ideal` as the
// bounds allow, with every partial sum within int32; false when there is none.
bool fit_bias(const microaot_add_params_q& p, const std::vector<int32_t>& reference, int64_t m1, int64_t m2, int64_t ideal,
              int64_t* bias) {
  const std::vector<int64_t> t1 = terms(m1), t2 = terms(m2);
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (int a = 0; a < kValues; ++a) {
    for (int b = 0; b < kValues; ++b) {
      const int64_t f = reference[static_cast<size_t>(a * kValues + b)], t = t1[a] + t2[b];
      if (f > p.activation_min) lo = std::max(lo, f * kStep - t);             // floor(sum / 2^16) >= f
      if (f < p.activation_max) hi = std::min(hi, (f + 1) * kStep - 1 - t);   // and <= f
    }
  }
  if (lo > hi) return false;
  *bias = std::min(std::max(ideal, lo), hi);
  const auto [t1_min, t1_max] = std::minmax_element(t1.begin(), t1.end());
  const auto [t2_min, t2_max] = std::minmax_element(t2.begin(), t2.end());
  const int64_t low = *bias + std::min<int64_t>(*t1_min, 0) + std::min<int64_t>(*t2_min, 0);
  const int64_t high = *bias + std::max<int64_t>(*t1_max, 0) + std::max<int64_t>(*t2_max, 0);
  return low >= INT32_MIN && high <= INT32_MAX;
}

// The proof itself, on the kernel's own arithmetic: the form's output equals the reference for every pair.
bool matches_everywhere(const microaot_add_params_q& p, const std::vector<int32_t>& reference, const int32_t form[3]) {
  for (int a = 0; a < kValues; ++a) {
    for (int b = 0; b < kValues; ++b) {
      const int32_t got = microaot_add_linear_output(form, a - 128, b - 128, p.activation_min, p.activation_max);
      if (got != reference[static_cast<size_t>(a * kValues + b)]) return false;
    }
  }
  return true;
}

bool fits_int32(double x) { return std::fabs(x) < 2147483647.0; }

}  // namespace

std::vector<int32_t> fit_add_linear_form(const microaot_add_params_q& p, bool subtract) {
  // What ADD's and SUB's Prepare make (left shift 20, zero points of int8, shifts <= 0), with room: the
  // reference's (q + offset) * 2^left_shift must not overflow for any pair.
  const auto small_offset = [](int32_t offset) { return offset >= -255 && offset <= 255; };
  if (p.left_shift < 0 || p.left_shift > 22 || !small_offset(p.input1_offset) || !small_offset(p.input2_offset) ||
      p.input1_shift > 0 || p.input2_shift > 0 || p.output_shift > 0 || p.activation_min < -128 ||
      p.activation_max > 127) {
    return {};
  }
  const double alpha = slope(p, p.input1_multiplier, p.input1_shift);
  const double beta = (subtract ? -1 : 1) * slope(p, p.input2_multiplier, p.input2_shift);
  const double gamma = p.input1_offset * alpha + p.input2_offset * beta + p.output_offset + 0.5;
  const double m1_real = std::ldexp(alpha, 8 + MICROAOT_ADD_LINEAR_SHIFT), m2_real = std::ldexp(beta, 8 + MICROAOT_ADD_LINEAR_SHIFT);
  const double bias_real = std::ldexp(gamma, MICROAOT_ADD_LINEAR_SHIFT);
  if (!fits_int32(std::fabs(m1_real) + kSearch) || !fits_int32(std::fabs(m2_real) + kSearch) || !fits_int32(bias_real)) {
    return {};
  }
  const std::vector<int32_t> reference = reference_outputs(p, subtract);
  for (int d1 = -kSearch; d1 <= kSearch; ++d1) {
    for (int d2 = -kSearch; d2 <= kSearch; ++d2) {
      const int64_t m1 = std::llround(m1_real) + d1, m2 = std::llround(m2_real) + d2;
      int64_t bias = 0;
      if (!fit_bias(p, reference, m1, m2, std::llround(bias_real), &bias)) continue;
      const int32_t form[3] = {static_cast<int32_t>(m1), static_cast<int32_t>(m2), static_cast<int32_t>(bias)};
      if (matches_everywhere(p, reference, form)) return {form[0], form[1], form[2]};
    }
  }
  return {};
}

namespace {

// The scalar fields of the params as lowered (the walk's arrays are not needed: the form is per element).
void read_field(const KernelCall& call, const char* field, int32_t* value) {
  const ParamValue* bound = call.params.find(field);
  MICROAOT_CHECK(bound != nullptr, std::string("ADD's lowering did not set ") + field);
  *value = static_cast<int32_t>(bound->integer);
}
void read_field(const KernelCall&, const char*, const int32_t**) {}

microaot_add_params_q rescale_params(const KernelCall& call) {
  microaot_add_params_q p{};
#define MICROAOT_READ_FIELD(kind, name) read_field(call, #name, &p.name);
  MICROAOT_FIELDS_add_params_q(MICROAOT_READ_FIELD)
#undef MICROAOT_READ_FIELD
  return p;
}

std::vector<int32_t> integers_of(const KernelCall& call, const char* field) {
  const ParamValue* bound = call.params.find(field);
  MICROAOT_CHECK(bound != nullptr, std::string("ADD's lowering did not set ") + field);
  return std::vector<int32_t>(bound->integers.begin(), bound->integers.end());
}

// How the DSP kernels walk the layer (microaot_broadcast_fold_kind, the kernels' own rule); *vector: the input
// broadcast.
int fold_kind_of(const KernelCall& call, int* vector) {
  int32_t num_dims = 0;
  read_field(call, "num_dims", &num_dims);
  if (num_dims == 0) return MICROAOT_FOLD_NONE;
  const std::vector<int32_t> shape = integers_of(call, "output_shape"), strides1 = integers_of(call, "input1_strides"),
                             strides2 = integers_of(call, "input2_strides");
  return microaot_broadcast_fold_kind(num_dims, shape.data(), strides1.data(), strides2.data(), vector);
}

// The walk of `kind`, in words.
std::string walk_of(int kind, int vector) {
  switch (kind) {
    case MICROAOT_FOLD_NONE:
      return "2 SMLAW per element";
    case MICROAOT_FOLD_ROWS:
      return "the broadcast operand folded into each row's bias, 1 SMLAW per element";
    case MICROAOT_FOLD_CHANNELS:
      return "input " + std::to_string(vector + 1) + "'s channels folded into a table of biases, 1 SMLAW per element";
    default:
      return "element by element: no folded form for this broadcast (the operands step by other than 0 and 1)";
  }
}

}  // namespace

void use_add_linear_form(KernelCall& call, const Target& target, bool subtract) {
  if (!has_specialisation_for(call.stem, target)) return;
  const std::vector<int32_t> form = fit_add_linear_form(rescale_params(call), subtract);
  if (form.empty()) {
    call.specialisation = "general rescaling: no linear form matches every pair of input values";
    return;
  }
  call.derived.push_back(int32_constant(call.stem + "_linear_form", form));
  call.args.insert(call.args.begin() + 2, derived_arg(0));
  int vector = 0;
  const int kind = fold_kind_of(call, &vector);
  // The folded forms are a kernel of their own (DSP source only: Helium's add_s8_linear folds nothing), so that
  // a model whose ADDs take two full operands links neither their code nor their table's stack.
  const bool folds = (kind == MICROAOT_FOLD_ROWS || kind == MICROAOT_FOLD_CHANNELS) && !target_runs_isa(target, "mve");
  call.stem = folds ? "add_s8_folded" : "add_s8_linear";
  call.specialisation = "one linear form, exact on all 65536 input pairs; " + walk_of(kind, vector);
}

}  // namespace microaot
