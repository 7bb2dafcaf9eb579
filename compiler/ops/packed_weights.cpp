#include "ops/packed_weights.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "microaot/fixedpoint.h"
#include "microaot/kernels/packed.h"
#include "microaot/packed_matmul.h"

namespace microaot {
namespace {

constexpr int32_t kGroup = 4;  // elements per word

// Groups per unit (microaot_packed_groups).
int32_t groups_of(int32_t depth) { return (depth + kGroup - 1) / kGroup; }

// The weight of unit u at element k, 0 outside the matrix (the padding of the layout).
int8_t weight_at(const std::vector<int8_t>& weights, int32_t units, int32_t depth, int32_t u, int32_t k) {
  if (u >= units || k >= depth) return 0;
  return weights[static_cast<size_t>(u) * static_cast<size_t>(depth) + static_cast<size_t>(k)];
}

}  // namespace

Tensor int32_constant(const std::string& name, const std::vector<int32_t>& values) {
  Tensor t;
  t.name = name;
  t.dtype = DType::kInt32;
  t.shape = {static_cast<int32_t>(values.size())};
  t.is_constant = true;
  t.data.resize(values.size() * sizeof(int32_t));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

PackedWeights packed_weights_form(const Target& target) {
  return target.packed_int16_weights() ? PackedWeights::kInt16 : PackedWeights::kInt8;
}

namespace {

// Unit u's elements `first`, first + step, ... of group g (four at step 1, two at step 2) as the lanes of one
// word, the first lowest: int8 lanes (step 1) or int16 lanes (step 2).
uint32_t lanes_word(const std::vector<int8_t>& weights, int32_t units, int32_t depth, int32_t u, int32_t g,
                    int32_t first, int32_t step) {
  const int32_t lane_bits = 8 * step;
  uint32_t word = 0;
  for (int32_t lane = 0; first + lane * step < kGroup; ++lane) {
    const int32_t value = weight_at(weights, units, depth, u, g * kGroup + first + lane * step);
    word |= (static_cast<uint32_t>(value) & ((1u << lane_bits) - 1u)) << (lane * lane_bits);
  }
  return word;
}

// The raw form of a word of int8 lanes (w0, w1, w2, w3): bytes (w0, w1 - [w0 < 0], w2, w3 - [w2 < 0]), so that
// its int16 lanes are 256 w1 + w0 and 256 w3 + w2 (raw_form_stage refuses a byte that would leave int8).
uint32_t raw_word(uint32_t word) {
  uint32_t raw = 0;
  for (int lane = 0; lane < 2; ++lane) {
    const auto even = static_cast<int8_t>(word >> (16 * lane)), odd = static_cast<int8_t>(word >> (16 * lane + 8));
    const auto bits = static_cast<uint16_t>(256 * odd + even);  // the int16 lane, exact: odd - [even < 0] is int8
    raw |= static_cast<uint32_t>(bits) << (16 * lane);
  }
  return raw;
}

}  // namespace

namespace {

// The words of elements [begin, begin + length) of every unit (one chunk of the reduction, microaot/kernels/packed.h),
// appended to `words` as those of a row of `length` elements.
void pack_chunk(const std::vector<int8_t>& weights, int32_t units, int32_t depth, int32_t begin, int32_t length,
                PackedWeights form, std::vector<int32_t>& words) {
  std::vector<int8_t> chunk(static_cast<size_t>(units) * static_cast<size_t>(length));
  for (int32_t u = 0; u < units; ++u) {
    for (int32_t k = 0; k < length; ++k) {
      chunk[static_cast<size_t>(u) * static_cast<size_t>(length) + static_cast<size_t>(k)] =
          weight_at(weights, units, depth, u, begin + k);
    }
  }
  for (int32_t pair = 0; pair < units; pair += 2) {
    for (int32_t g = 0; g < groups_of(length); ++g) {
      for (int32_t u = pair; u < pair + 2; ++u) {
        if (form == PackedWeights::kInt8) {
          words.push_back(static_cast<int32_t>(lanes_word(chunk, units, length, u, g, 0, 1)));
        } else if (form == PackedWeights::kInt8Raw) {
          words.push_back(static_cast<int32_t>(raw_word(lanes_word(chunk, units, length, u, g, 0, 1))));
        } else {  // the lanes SXTB16 and SXTB16 ROR 8 give of the int8 word
          words.push_back(static_cast<int32_t>(lanes_word(chunk, units, length, u, g, 0, 2)));
          words.push_back(static_cast<int32_t>(lanes_word(chunk, units, length, u, g, 1, 2)));
        }
      }
    }
  }
}

}  // namespace

std::vector<int32_t> pack_weight_words(const std::vector<int8_t>& weights, int32_t units, int32_t depth,
                                       PackedWeights form) {
  std::vector<int32_t> words;
  const int32_t chunk = MICROAOT_PACKED_CHUNK_LENGTH(depth);
  for (int32_t begin = 0; begin < depth; begin += chunk) {
    pack_chunk(weights, units, depth, begin, std::min(chunk, depth - begin), form, words);
  }
  return words;
}

std::vector<int32_t> pack_whole_rows(const std::vector<int8_t>& weights, int32_t units, int32_t depth,
                                     PackedWeights form) {
  std::vector<int32_t> words;
  pack_chunk(weights, units, depth, 0, depth, form, words);
  return words;
}

std::vector<int32_t> fold_input_offset(const std::vector<int32_t>& bias, const std::vector<int8_t>& weights,
                                       int32_t units, int32_t depth, int32_t input_offset) {
  std::vector<int32_t> folded(static_cast<size_t>(units));
  for (int32_t u = 0; u < units; ++u) {
    int64_t sum = 0;
    for (int32_t k = 0; k < depth; ++k) sum += weight_at(weights, units, depth, u, k);
    const uint32_t base = bias.empty() ? 0u : static_cast<uint32_t>(bias[static_cast<size_t>(u)]);
    folded[static_cast<size_t>(u)] = static_cast<int32_t>(base + static_cast<uint32_t>(sum * input_offset));
  }
  return folded;
}

namespace {

constexpr size_t kPackedStepWords = MICROAOT_PACKED_STEP_WORDS;

// The largest |row . unit u|: |input| <= 128 times each |weight|.
int64_t products_bound(const std::vector<int8_t>& weights, int32_t units, int32_t depth, int32_t u) {
  int64_t bound = 0;
  for (int32_t k = 0; k < depth; ++k) bound += 128 * std::llabs(int64_t{weight_at(weights, units, depth, u, k)});
  return bound;
}

// TFLM's output of a channel for the int32 sum s (bias included): requantized, plus the offset, clamped.
int64_t reference_output(int64_t s, int64_t multiplier, int64_t shift, const PackedRequant& r) {
  const int64_t value = microaot_multiply_by_quantized_multiplier(static_cast<int32_t>(s), static_cast<int32_t>(multiplier),
                                                                  static_cast<int>(shift)) +
                        r.output_offset;
  return std::min(std::max(value, r.activation_min), r.activation_max);
}

// A channel whose every output is one value c (a bias so large that the products cannot move it: VWW's dead
// channels, bias 2^30), as the step's words: bias 0, multiplier 0, rounding 2c + 1, shift 1, which give
// (2c + 1 - [s < 0]) >> 1 = c for any sum. Constant because TFLM's output is monotone in the sum (m >= 0, no
// left shift, no int32 wrap between the two ends) and equal at both ends.
bool constant_words(int64_t bias, int64_t products, int64_t multiplier, int64_t shift, const PackedRequant& r,
                    int32_t words[4]) {
  const int64_t lo = bias - products, hi = bias + products;
  // Shifts below -31 are outside what the reference computes (a right shift by 32 or more of an int32).
  if (multiplier < 0 || shift > 0 || shift < -31 || lo < INT32_MIN || hi > INT32_MAX) return false;
  const int64_t c = reference_output(lo, multiplier, shift, r);
  if (c != reference_output(hi, multiplier, shift, r)) return false;
  words[0] = 0;
  words[1] = 0;
  words[2] = static_cast<int32_t>(2 * c + 1);
  words[3] = 1;
  return true;
}

// One unit's words of the SMMLAR output step (microaot_packed_requantized), or false when it is not exact.
// Why it is exact, for a sum s with |s| <= |bias| + products_bound < 2^30, m in [0, 2^31), e = -shift in [1, 31]:
// - d = 2s fits int32, and s is TFLM's int32 accumulator itself (equal modulo 2^32, both in int32 range).
// - TFLM's rounding doubling high multiply is h = floor((s*m + 2^30) / 2^31) (its nudge and truncating divide
//   give this floor for either sign; no saturation since |s| < 2^31), = floor((d*m + 2^31) / 2^32).
// - SMMLAR(d, m, t) = t + h when t + h fits int32; t = R - [s < 0] with R = 2^(e-1) + output_offset * 2^e, and
//   |h| <= floor((bound*m + 2^30) / 2^31), so |R| + 1 + that bound < 2^31 is checked below.
// - TFLM's rounding right shift (ties away from zero) is floor((h + 2^(e-1) - [h < 0]) / 2^e); s and h have the
//   same sign (m >= 0) except h = 0 for s < 0, where both forms give 0 since e >= 1. Adding output_offset * 2^e
//   before the shift adds output_offset after it exactly, so (t + h) >> e is the requantized value plus the
//   output offset, which the kernel clamps as the reference does.
// A multiplier of 0 (a channel TFLite's converter zeroed, with shift 0) makes every value 0 at any shift: it
// takes shift -1 here.
bool smmlar_words(int64_t bound, int64_t multiplier, int64_t shift, int64_t output_offset, int32_t words[3]) {
  constexpr int64_t kInt32Limit = int64_t{1} << 31;
  const int64_t e = multiplier == 0 ? 1 : -shift;
  if (bound >= (int64_t{1} << 30) || multiplier < 0 || multiplier >= kInt32Limit || e < 1 || e > 31) return false;
  const int64_t high_bound = (bound * multiplier + (int64_t{1} << 30)) >> 31;
  const int64_t rounding = (int64_t{1} << (e - 1)) + output_offset * (int64_t{1} << e);
  if (std::llabs(rounding) + 1 + high_bound >= kInt32Limit) return false;
  words[0] = static_cast<int32_t>(multiplier);
  words[1] = static_cast<int32_t>(rounding);
  words[2] = static_cast<int32_t>(e);
  return true;
}

}  // namespace

std::vector<int32_t> packed_output_stage(const std::vector<int32_t>& folded_bias, const std::vector<int8_t>& weights,
                                         int32_t units, int32_t depth, const PackedRequant& requant) {
  // Per unit pair: bias, multiplier, rounding and shift of each unit in turn (an absent last unit's zeros).
  std::vector<int32_t> words(static_cast<size_t>((units + 1) / 2) * kPackedStepWords, 0);
  for (int32_t u = 0; u < units; ++u) {
    const auto c = static_cast<size_t>(u);
    const int64_t bias = folded_bias[c], products = products_bound(weights, units, depth, u);
    int32_t step[4] = {folded_bias[c], 0, 0, 0};  // bias, multiplier, rounding, shift
    if (!smmlar_words(std::llabs(bias) + products, requant.multiplier[c], requant.shift[c], requant.output_offset,
                      step + 1) &&
        !constant_words(bias, products, requant.multiplier[c], requant.shift[c], requant, step)) {
      return {};
    }
    int32_t* const pair = &words[static_cast<size_t>(u / 2) * kPackedStepWords + static_cast<size_t>(u % 2)];
    for (int k = 0; k < 4; ++k) pair[2 * k] = step[k];
  }
  return words;
}

namespace {

// Unit u's bias in the raw form into *raw (times 256, plus 256 * 127 * its weights at odd positions of their group,
// wrapped to int32); false where the form is not exact: a sum that may reach 2^23 (unless any_sum: the unit's
// output does not depend on it), a weight -128 at an odd position after a negative one.
bool raw_form_bias(int64_t bias, bool any_sum, const std::vector<int8_t>& weights, int32_t units, int32_t depth,
                   int32_t u, int32_t* raw) {
  constexpr int64_t kRawSumLimit = int64_t{1} << 23;
  if (!any_sum && std::llabs(bias) + products_bound(weights, units, depth, u) >= kRawSumLimit) return false;
  // Odd positions in their group are the odd k: chunks (MICROAOT_PACKED_CHUNK_LENGTH) are multiples of 4.
  int64_t odd = 0;
  for (int32_t k = 1; k < depth; k += 2) {
    const int32_t w = weight_at(weights, units, depth, u, k);
    if (w == -128 && weight_at(weights, units, depth, u, k - 1) < 0) return false;
    odd += w;
  }
  *raw = static_cast<int32_t>(static_cast<uint32_t>(bias) * 256u + static_cast<uint32_t>(odd * 256 * 127));
  return true;
}

}  // namespace

std::vector<int32_t> raw_form_stage(const std::vector<int32_t>& stage, const std::vector<int8_t>& weights,
                                    int32_t units, int32_t depth) {
  if (stage.empty()) return {};
  std::vector<int32_t> raw = stage;
  for (int32_t u = 0; u < units; ++u) {
    int32_t* const words = &raw[static_cast<size_t>(u / 2) * kPackedStepWords + static_cast<size_t>(u % 2)];
    if (!raw_form_bias(words[0], words[2] == 0, weights, units, depth, u, &words[0])) return {};
  }
  return raw;
}

std::vector<int32_t> raw_form_biases(const std::vector<int32_t>& bias, const std::vector<int8_t>& weights,
                                     int32_t units, int32_t depth) {
  std::vector<int32_t> raw(bias.size());
  for (int32_t u = 0; u < units; ++u) {
    if (!raw_form_bias(bias[static_cast<size_t>(u)], false, weights, units, depth, u, &raw[static_cast<size_t>(u)])) {
      return {};
    }
  }
  return raw;
}

namespace {

// The packed weights as network_info.txt states them: form and bytes.
std::string weights_text(const KernelCall& call) {
  const auto ends_with = [&](const std::string& tail) {
    return call.stem.size() > tail.size() && call.stem.compare(call.stem.size() - tail.size(), tail.size(), tail) == 0;
  };
  return std::string("weights ") + (ends_with("_w16") ? "int16" : ends_with("_raw") ? "int8 (raw form)" : "int8") +
         " re-laid for SMLAD (" +
         std::to_string(call.derived[0].byte_size()) + " B)";
}

}  // namespace

const char* const kOutsideStepRange =
    "not packed: a channel's requantization outside the SMMLAR output step's range";

int64_t packed_rows_bytes(int32_t depth, int32_t units) {
  return MICROAOT_PACKED_ROWS_BYTES(int64_t{depth}, int64_t{units});
}

std::string packed_refusal(const Target& target, int32_t units, int64_t filter_offset, int32_t min_units) {
  if (target.optimize_size) return "not packed: --optimize size";
  if (!target.dsp) return "not packed: the target has no DSP extension";
  if (units < min_units) {
    return "not packed: " + std::to_string(units) + " units do not repay widening the input rows";
  }
  if (filter_offset != 0) return "not packed: the weights have a zero point";
  return "";
}

bool use_packed_weights(const Graph& graph, const Target& target, KernelCall& call, const std::string& packed_stem,
                        int32_t units, int32_t depth, bool raw_allowed) {
  PackedWeights form = packed_weights_form(target);
  const Tensor& weights = graph.tensor(call.args[1]);
  const std::vector<int8_t> w = constant_values<int8_t>(weights);
  const std::vector<int32_t> bias = call.args[2] == kNoTensor ? std::vector<int32_t>{} : constant_values<int32_t>(graph.tensor(call.args[2]));
  const ParamValue* offset = call.params.find("input_offset");
  const auto input_offset = static_cast<int32_t>(offset->integer);
  const std::vector<int32_t> folded = fold_input_offset(bias, w, units, depth, input_offset);
  const PackedRequant requant{call.params.find("output_multiplier")->integers, call.params.find("output_shift")->integers,
                              call.params.find("output_offset")->integer, call.params.find("activation_min")->integer,
                              call.params.find("activation_max")->integer};
  std::vector<int32_t> stage = packed_output_stage(folded, w, units, depth, requant);
  if (stage.empty()) {
    call.specialisation = kOutsideStepRange;
    return false;
  }
  std::vector<int32_t> raw = raw_allowed && form == PackedWeights::kInt8 && units >= kPackedRawMinUnits
                                 ? raw_form_stage(stage, w, units, depth)
                                 : std::vector<int32_t>{};
  if (!raw.empty()) {
    form = PackedWeights::kInt8Raw;
    stage.swap(raw);
  }
  call.derived.push_back(int32_constant(weights.name + "_packed", pack_weight_words(w, units, depth, form)));
  call.derived.push_back(int32_constant(weights.name + "_requant", stage));
  call.args[1] = derived_arg(0);
  call.args[2] = derived_arg(1);  // the table in the bias's place: its words hold the folded bias
  // The table holds every channel's step: the per-channel arrays of the params are never read (NULL).
  call.params.replace_ints("output_multiplier", {});
  call.params.replace_ints("output_shift", {});
  call.params.replace_int("input_offset", 0);
  call.stem = packed_stem + (form == PackedWeights::kInt16 ? "_w16" : form == PackedWeights::kInt8Raw ? "_raw" : "");
  call.scratch_bytes = packed_rows_bytes(depth, units);
  call.specialisation = "packed: 2 rows x 2 units per step, " + weights_text(call) +
                        ", input zero point in the bias, output step one SMMLAR per value";
  return true;
}

int64_t packed_pixel_rows_bytes(int32_t depth, int32_t units) {
  return MICROAOT_PACKED_PIXEL_ROWS_BYTES(int64_t{depth}, int64_t{units});
}

microaot_conv_2d_params_q conv_geometry_params(const KernelCall& call) {
  microaot_conv_2d_params_q p{};
  const auto field = [&](const char* name) {
    const ParamValue* v = call.params.find(name);
    return static_cast<int32_t>(v != nullptr ? v->integer : 0);
  };
#define MICROAOT_GEOMETRY_FIELD(type, name) p.name = field(#name);
  MICROAOT_CONV_INPUT_FIELDS(MICROAOT_GEOMETRY_FIELD)
  MICROAOT_CONV_WINDOW_FIELDS(MICROAOT_GEOMETRY_FIELD)
  MICROAOT_CONV_OUTPUT_FIELDS(MICROAOT_GEOMETRY_FIELD)
#undef MICROAOT_GEOMETRY_FIELD
  return p;
}

bool use_packed_window_weights(const Graph& graph, const Target& target, KernelCall& call,
                               const std::string& packed_stem, int32_t units, int32_t window, bool raw_allowed) {
  const int64_t input_offset = call.params.find("input_offset")->integer;
  if (!use_packed_weights(graph, target, call, packed_stem, units, window, raw_allowed)) return false;
  call.params.replace_int("input_offset", input_offset);
  const microaot_conv_2d_params_q p = conv_geometry_params(call);
  const int32_t padded = microaot_packed_padded_rows_bytes(&p);
  call.scratch_bytes = microaot_packed_kxk_bytes(&p);
  call.specialisation = "packed windows: each output pixel's " + std::to_string(window) + " taps gathered" +
                        (padded > 0 ? " from each output row's padded rows (" + std::to_string(padded) + " bytes)"
                                    : std::string()) +
                        " (padding = input zero point), 3 pixels x 2 channels per step, " +
                        weights_text(call) +
                        ", input zero point in the bias, output step one SMMLAR per value";
  return true;
}

bool use_packed_s16_weights(const Graph& graph, const Target& target, KernelCall& call, const PackedS16& layer) {
  if (layer.depth > MICROAOT_PACKED_S16_MAX_WINDOW) {
    call.specialisation = "not packed: " + std::string(layer.what) + " of " + std::to_string(layer.depth) +
                          " elements, past the " + std::to_string(MICROAOT_PACKED_S16_MAX_WINDOW) +
                          " whose int32 sums cannot overflow";
    return false;
  }
  const PackedWeights form = packed_weights_form(target);
  const Tensor& weights = graph.tensor(call.args[1]);
  const std::vector<int32_t> words =
      pack_weight_words(constant_values<int8_t>(weights), layer.units, layer.depth, form);
  call.derived.push_back(int32_constant(weights.name + "_packed", words));
  call.args[1] = derived_arg(0);
  call.stem = layer.stem + (form == PackedWeights::kInt16 ? "_w16" : "");
  call.scratch_bytes = layer.scratch_bytes;
  call.specialisation = "packed 16x8: " + std::string(layer.blocking) + ", " + weights_text(call) +
                        ", int32 sums, the bias and requantization per output as the reference";
  return true;
}

}  // namespace microaot
