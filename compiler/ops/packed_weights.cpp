#include "ops/packed_weights.h"

#include <cstring>

#include "microaot/kernels/packed.h"

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

std::vector<int8_t> int8_values(const Tensor& t) {
  std::vector<int8_t> values(t.data.size());
  if (!values.empty()) std::memcpy(values.data(), t.data.data(), values.size());
  return values;
}

std::vector<int32_t> int32_values(const Tensor& t) {
  std::vector<int32_t> values(t.data.size() / sizeof(int32_t));
  if (!values.empty()) std::memcpy(values.data(), t.data.data(), values.size() * sizeof(int32_t));
  return values;
}

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

}  // namespace

std::vector<int32_t> pack_weight_words(const std::vector<int8_t>& weights, int32_t units, int32_t depth) {
  std::vector<int32_t> words;
  for (int32_t pair = 0; pair < units; pair += 2) {
    for (int32_t g = 0; g < groups_of(depth); ++g) {
      for (int32_t u = pair; u < pair + 2; ++u) {
        uint32_t word = 0;
        for (int32_t b = 0; b < kGroup; ++b) {
          const auto byte = static_cast<uint8_t>(weight_at(weights, units, depth, u, g * kGroup + b));
          word |= uint32_t{byte} << (8 * b);
        }
        words.push_back(static_cast<int32_t>(word));
      }
    }
  }
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

int64_t packed_rows_bytes(int32_t depth) { return MICROAOT_PACKED_ROWS_BYTES(int64_t{depth}); }

std::string packed_refusal(const Target& target, int32_t units, int32_t depth, int64_t filter_offset) {
  if (target.optimize_size) return "not packed: --optimize size";
  if (!target.dsp) return "not packed: the target has no DSP extension";
  if (units < kPackedMinUnits) {
    return "not packed: " + std::to_string(units) + " units do not repay widening the input rows";
  }
  if (depth > kPackedMaxDepth) {
    return "not packed: depth " + std::to_string(depth) + " > " + std::to_string(kPackedMaxDepth);
  }
  if (filter_offset != 0) return "not packed: the weights have a zero point";
  return "";
}

void use_packed_weights(const Graph& graph, KernelCall& call, const std::string& packed_stem, int32_t units,
                        int32_t depth) {
  const Tensor& weights = graph.tensor(call.args[1]);
  const std::vector<int8_t> w = int8_values(weights);
  const std::vector<int32_t> bias = call.args[2] == kNoTensor ? std::vector<int32_t>{} : int32_values(graph.tensor(call.args[2]));
  const ParamValue* offset = call.params.find("input_offset");
  const auto input_offset = static_cast<int32_t>(offset->integer);
  call.derived.push_back(int32_constant(weights.name + "_packed", pack_weight_words(w, units, depth)));
  call.derived.push_back(int32_constant(weights.name + "_folded_bias", fold_input_offset(bias, w, units, depth, input_offset)));
  call.args[1] = derived_arg(0);
  call.args[2] = derived_arg(1);
  call.params.replace_int("input_offset", 0);
  call.stem = packed_stem;
  call.scratch_bytes = packed_rows_bytes(depth);
  call.specialisation = "packed: 2 rows x 2 units per step, weights re-laid for SMLAD (" +
                        std::to_string(call.derived[0].byte_size()) + " B), input zero point in the bias";
}

int64_t packed_windows_bytes(int32_t window) { return MICROAOT_PACKED_WINDOWS_BYTES(int64_t{window}); }

void use_packed_window_weights(const Graph& graph, KernelCall& call, const std::string& packed_stem, int32_t units,
                               int32_t window) {
  const int64_t input_offset = call.params.find("input_offset")->integer;
  use_packed_weights(graph, call, packed_stem, units, window);
  call.params.replace_int("input_offset", input_offset);
  call.scratch_bytes = packed_windows_bytes(window);
  call.specialisation = "packed windows: each output pixel's " + std::to_string(window) +
                        " taps gathered (padding = input zero point), 2 pixels x 2 channels per step, weights re-laid "
                        "for SMLAD (" + std::to_string(call.derived[0].byte_size()) + " B), input zero point in the bias";
}

}  // namespace microaot
