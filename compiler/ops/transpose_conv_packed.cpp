#include "ops/transpose_conv_packed.h"

#include "kernels/params_struct.h"
#include "microaot/fit/transpose_conv.h"
#include "microaot/packed_matmul.h"

namespace microaot {

std::vector<int8_t> transpose_conv_phase_weights(const microaot_transpose_conv_params_q& p,
                                                 const std::vector<int8_t>& filter, int32_t ry, int32_t rx) {
  const int32_t taps_y = microaot_tconv_phase_taps(p.filter_height, p.stride_height, ry);
  const int32_t taps_x = microaot_tconv_phase_taps(p.filter_width, p.stride_width, rx);
  const size_t depth = static_cast<size_t>(p.input_depth);
  std::vector<int8_t> w;
  w.reserve(static_cast<size_t>(p.output_depth) * static_cast<size_t>(taps_y * taps_x) * depth);
  for (int32_t oc = 0; oc < p.output_depth; ++oc) {
    for (int32_t ty = 0; ty < taps_y; ++ty) {
      const int32_t fy = microaot_tconv_filter_tap(p.filter_height, p.stride_height, ry, ty);
      for (int32_t tx = 0; tx < taps_x; ++tx) {
        const int32_t fx = microaot_tconv_filter_tap(p.filter_width, p.stride_width, rx, tx);
        if (fy < 0 || fx < 0) {
          w.insert(w.end(), depth, int8_t{0});
          continue;
        }
        const size_t at = ((static_cast<size_t>(oc) * static_cast<size_t>(p.filter_height) + static_cast<size_t>(fy)) *
                               static_cast<size_t>(p.filter_width) + static_cast<size_t>(fx)) * depth;
        w.insert(w.end(), filter.begin() + static_cast<std::ptrdiff_t>(at),
                 filter.begin() + static_cast<std::ptrdiff_t>(at + depth));
      }
    }
  }
  return w;
}

namespace {

// One packed product of `units` rows of `window` weights appended to `packed`; false when its step is not exact.
bool append_product(const std::vector<int8_t>& w, int32_t units, int32_t window, const std::vector<int32_t>& bias,
                    int32_t input_offset, const PackedRequant& requant, PackedWeights form, PackedPhases& packed) {
  std::vector<int32_t> stage =
      packed_output_stage(fold_input_offset(bias, w, units, window, input_offset), w, units, window, requant);
  if (form == PackedWeights::kInt8Raw) stage = raw_form_stage(stage, w, units, window);
  if (stage.empty()) return false;
  const std::vector<int32_t> words = pack_weight_words(w, units, window, form);
  packed.words.insert(packed.words.end(), words.begin(), words.end());
  packed.table.insert(packed.table.end(), stage.begin(), stage.end());
  return true;
}

// `v` repeated `times` times (a unit's constants for each unified phase).
template <typename T>
std::vector<T> repeated(const std::vector<T>& v, int32_t times) {
  std::vector<T> r;
  for (int32_t i = 0; i < times; ++i) r.insert(r.end(), v.begin(), v.end());
  return r;
}

}  // namespace

PackedPhases pack_transpose_conv(const microaot_transpose_conv_params_q& p, const std::vector<int8_t>& filter,
                                 const std::vector<int32_t>& bias, const PackedRequant& requant, PackedWeights form) {
  const int32_t phases = p.stride_height * p.stride_width;
  PackedPhases packed;
  if (microaot_tconv_unified(&p)) {  // one product: every phase's channels as units, ry, rx, channel ascending
    std::vector<int8_t> w;
    for (int32_t ry = 0; ry < p.stride_height; ++ry) {
      for (int32_t rx = 0; rx < p.stride_width; ++rx) {
        const std::vector<int8_t> phase = transpose_conv_phase_weights(p, filter, ry, rx);
        w.insert(w.end(), phase.begin(), phase.end());
      }
    }
    PackedRequant all = requant;
    all.multiplier = repeated(requant.multiplier, phases), all.shift = repeated(requant.shift, phases);
    const bool exact = append_product(w, microaot_tconv_units(&p), microaot_tconv_max_window(&p),
                                      bias.empty() ? bias : repeated(bias, phases), p.input_offset, all, form, packed);
    return exact ? packed : PackedPhases{};
  }
  for (int32_t ry = 0; ry < p.stride_height; ++ry) {
    for (int32_t rx = 0; rx < p.stride_width; ++rx) {
      if (!append_product(transpose_conv_phase_weights(p, filter, ry, rx), p.output_depth,
                          microaot_tconv_phase_window(&p, ry, rx), bias, p.input_offset, requant, form, packed)) {
        return {};
      }
    }
  }
  return packed;
}

namespace {

// Why the layer keeps the portable kernel, empty when the packed one takes it.
std::string refusal(const Target& target, const microaot_transpose_conv_params_q& p) {
  if (target.optimize_size) return "not packed: --optimize size";
  if (!target.dsp) return "not packed: the target has no DSP extension";
  if (microaot_fit_transpose_conv_packed(&p)) return "";
  if (microaot_tconv_max_window(&p) > MICROAOT_PACKED_CHUNK) {
    return "not packed: a stride phase's window of " + std::to_string(microaot_tconv_max_window(&p)) +
           " elements is longer than one chunk of the packed rows (" + std::to_string(MICROAOT_PACKED_CHUNK) + ")";
  }
  return "not packed: filters and strides up to 64 (microaot_fit_transpose_conv_packed)";
  return "";
}

}  // namespace

void choose_packed_transpose_conv(const Graph& graph, const Target& target, KernelCall& call) {
  const microaot_transpose_conv_params_q p = MICROAOT_PARAMS_STRUCT(transpose_conv_params_q, call.params);
  call.specialisation = refusal(target, p);
  if (!call.specialisation.empty()) return;
  const Tensor& weights = graph.tensor(call.args[1]);
  const std::vector<int8_t> filter = constant_values<int8_t>(weights);
  const std::vector<int32_t> bias =
      call.args[2] == kNoTensor ? std::vector<int32_t>{} : constant_values<int32_t>(graph.tensor(call.args[2]));
  const PackedRequant requant{call.params.find("output_multiplier")->integers,
                              call.params.find("output_shift")->integers, call.params.find("output_offset")->integer, call.params.find("activation_min")->integer,
                              call.params.find("activation_max")->integer};
  PackedWeights form = packed_weights_form(target);
  PackedPhases packed;
  if (form == PackedWeights::kInt8 && p.output_depth >= kPackedRawMinUnits) {
    packed = pack_transpose_conv(p, filter, bias, requant, PackedWeights::kInt8Raw);
    if (!packed.table.empty()) form = PackedWeights::kInt8Raw;
  }
  if (packed.table.empty()) packed = pack_transpose_conv(p, filter, bias, requant, form);
  if (packed.table.empty()) {
    call.specialisation = kOutsideStepRange;
    return;
  }
  call.derived.push_back(int32_constant(weights.name + "_phases_packed", packed.words));
  call.derived.push_back(int32_constant(weights.name + "_phases_requant", packed.table));
  call.args[1] = derived_arg(0);
  call.args[2] = derived_arg(1);  // the tables in the bias's place: their words hold the folded bias
  call.params.replace_ints("output_multiplier", {});
  call.params.replace_ints("output_shift", {});
  const char* const suffix = form == PackedWeights::kInt16 ? "_w16" : form == PackedWeights::kInt8Raw ? "_raw" : "";
  call.stem = std::string("transpose_conv_s8_packed") + suffix;
  call.scratch_bytes =
      MICROAOT_TRANSPOSE_CONV_PACKED_BYTES(int64_t{microaot_tconv_max_window(&p)}, int64_t{microaot_tconv_units(&p)});
  const std::string phases = std::to_string(p.stride_height * p.stride_width) + " stride phases";
  call.specialisation = "packed phases: " +
                        (microaot_tconv_unified(&p)
                             ? phases + " as one convolution of unit stride over the input (filter a multiple of the "
                                        "stride: each window of " + std::to_string(microaot_tconv_max_window(&p)) +
                                   " taps against every phase's channels)"
                             : phases + ", each a convolution of unit stride over the input (windows of up to " +
                                   std::to_string(microaot_tconv_max_window(&p)) + " taps)") +
                        ", 2 pixels x 2 channels per step, " +
                        "weights " +
                        (form == PackedWeights::kInt16     ? "int16"
                         : form == PackedWeights::kInt8Raw ? "int8 (raw form)"
                                                           : "int8") +
                        " re-laid for SMLAD (" + std::to_string(call.derived[0].byte_size()) +
                        " B), input zero point in the bias, output step one SMMLAR per value";
}

}  // namespace microaot
