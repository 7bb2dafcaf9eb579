// DEPTHWISE_CONV_2D: int8 (per-channel or per-tensor int8 weights, optional int32 bias), int16 activations
// with int8 weights and an int64 bias (16x8; TFLM reads any int16 model's bias as int64), float32 and hybrid
// (float32 activations, symmetric int8 weights; versions 4 and 6), with SAME/VALID padding, strides,
// dilation and any depth multiplier, as TFLite Micro's reference kernels. Versions up to 7 pass: the type
// checks refuse what the later ones add (int4).
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/params_struct.h"
#include "kernels/select_kernels.h"
#include "microaot/fit/depthwise_conv_2d.h"
#include "microaot/internal/depthwise_group_words.h"
#include "ops/conv_common.h"
#include "ops/depthwise_dsp_path.h"
#include "ops/hybrid_weights.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/packed_weights.h"
#include "ops/palette_weights.h"
#include "ops/read_options.h"
#include "ops/weighted_accumulator.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 7;
constexpr int kFilterChannelAxis = 3;  // [1, H, W, input_depth * depth_multiplier]

const DepthwiseConv2DOptions& options_of(const Graph& graph, const Op& op) {
  const auto* options = options_if<DepthwiseConv2DOptions>(op);
  expect_op(options != nullptr, graph, op, "has no DepthwiseConv2DOptions");
  return *options;
}

OpOptions read_options(const Graph& g, const Op& op, const tflite::Operator& source) {
  const auto& o = required_options<tflite::DepthwiseConv2DOptions>(g, op, source, "DepthwiseConv2DOptions");
  DepthwiseConv2DOptions r;
  r.padding = read_padding(g, op, o.padding());
  r.stride_w = read_positive(g, op, "stride_w", o.stride_w());
  r.stride_h = read_positive(g, op, "stride_h", o.stride_h());
  r.dilation_w = read_positive(g, op, "dilation_w_factor", o.dilation_w_factor());
  r.dilation_h = read_positive(g, op, "dilation_h_factor", o.dilation_h_factor());
  r.depth_multiplier = o.depth_multiplier();  // redundant with the shapes; check() decides
  r.activation = read_activation(g, op, o.fused_activation_function());
  return r;
}

ConvWindow window_of(const DepthwiseConv2DOptions& o) {
  return {o.padding, o.stride_h, o.stride_w, o.dilation_h, o.dilation_w, o.activation, o.explicit_padding};
}

int output_channels(const Graph& graph, const Op& op) {
  return graph.tensor(input_id(graph, op, kConvFilter)).shape[kFilterChannelAxis];
}

// TFLM's int16 depthwise kernel always sums in 64 bits.
DType accumulator(const Graph& graph, const ConvTensors& t) {
  return accumulator_type(graph, t.input, t.bias, /*int32_bias_option=*/false);
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 2, 3, 1);
  const DepthwiseConv2DOptions& options = options_of(graph, op);
  const ConvTensors t = conv_tensors(graph, op);
  const DType type = check_conv_types(graph, op, t, {DType::kInt64}, HybridFilters::kAccepted);
  const int filter = input_id(graph, op, kConvFilter);
  expect_rank(graph, op, filter, "input 1", 4);
  const int channels = output_channels(graph, op);
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options), channels);
  expect_tensor(graph.tensor(filter).shape[0] == 1, graph, op, filter, "input 1",
                "depthwise filter must have shape [1, height, width, channels]");
  // TFLM trusts the option; a value inconsistent with the shapes would read out of bounds there.
  expect_op(options.depth_multiplier >= 1 && int64_t{g.input_c} * options.depth_multiplier == channels, graph, op,
            "depth_multiplier " + std::to_string(options.depth_multiplier) + " does not match " +
                std::to_string(g.input_c) + " input channels and " + std::to_string(channels) + " filter channels");
  check_conv_constants(graph, op, t, channels);
  if (type != DType::kFloat32) {
    check_conv_quantization(graph, op, t, options.activation, channels, kFilterChannelAxis, accumulator(graph, t));
  } else if (is_hybrid(graph, t.input, t.filter)) {
    check_hybrid_weights(graph, op, t.filter, channels, kFilterChannelAxis);
  }
}

// The requantization of an int8 call as its params and bias tensor give it to the kernel.
DepthwiseRequantization requantization_of(const Graph& graph, const KernelCall& call, int bias) {
  DepthwiseRequantization r;
  r.input_offset = call.params.find("input_offset")->integer;
  r.output_offset = call.params.find("output_offset")->integer;
  r.filter_taps = call.params.find("filter_height")->integer * call.params.find("filter_width")->integer;
  r.depth_multiplier = call.params.find("depth_multiplier")->integer;
  r.multipliers = call.params.find("output_multiplier")->integers;
  r.shifts = call.params.find("output_shift")->integers;
  if (bias == kNoTensor) return r;
  for (int32_t value : constant_values<int32_t>(graph.tensor(bias))) r.bias.push_back(value);
  return r;
}

// The ring's own kernel takes the per-channel requantization as a constant argument after the bias (the
// multipliers, then the shifts) and the params' arrays stay empty (NULL): layers that differ only in their
// requantization then share one params struct (params_owner), with no weight bytes added.
void use_ring_kernel(const Graph& graph, KernelCall& call) {
  std::vector<int32_t> requant;
  for (const char* field : {"output_multiplier", "output_shift"}) {
    for (int64_t value : call.params.find(field)->integers) requant.push_back(static_cast<int32_t>(value));
    call.params.replace_ints(field, {});
  }
  call.derived.push_back(int32_constant(graph.tensor(call.args[kConvFilter]).name + "_ring_requant", requant));
  call.args.insert(call.args.begin() + kConvBias + 1, derived_arg(static_cast<int>(call.derived.size()) - 1));
  call.stem = "depthwise_conv_2d_s8_ring";
}

// The channel groups' constants computed here into one derived constant (microaot/internal/depthwise_group_words.h),
// in the place of the filter, bias and per-channel requantization, which the DSP kernel would compute per group and
// call (per group and row where an in-place output goes row by row), after a run-time test of the bounds the compiler
// proves here. Two forms:
// - widened (--optimize speed, depthwise_conv_2d_s8_w16): bias and 3x3 weights widened and doubled, output steps,
//   clamp: 148 bytes a group of 4 channels, nothing left to compute;
// - compact (the other levels, depthwise_conv_2d_s8_w8): bias doubled, multipliers and exponents, int8 taps: 84
//   bytes a group, the int8 form's filter, bias, multipliers and shifts, the weights widened per call.
// A layer the ring alone computes (`ring_only`) calls the form's ring-only kernel over the same words.
struct GroupWordsForm {
  int32_t words;  // a group's
  void (*write)(const microaot_depthwise_conv_2d_params_q*, const int8_t*, const microaot_depthwise_channels*,
                int32_t, int32_t*);
  const char* stem;
  const char* ring_stem;
  const char* why;
};

const GroupWordsForm kWidenedGroupWords = {MICROAOT_DW_GROUP_WORDS, microaot_dw_group_words, "depthwise_conv_2d_s8_w16",
                                           "depthwise_conv_2d_s8_ring_w16",
                                           "weights widened and doubled, output steps) computed at compile time: "};
const GroupWordsForm kCompactGroupWords = {MICROAOT_DW_COMPACT_WORDS, microaot_dw_compact_words,
                                           "depthwise_conv_2d_s8_w8", "depthwise_conv_2d_s8_ring_w8",
                                           "int8 taps, multipliers and exponents) checked at compile time: "};

void use_group_words(const Graph& graph, KernelCall& call, const microaot_depthwise_conv_2d_params_q& params,
                     const DepthwiseRequantization& r, bool ring_only, const GroupWordsForm& form) {
  const Tensor& filter = graph.tensor(call.args[kConvFilter]);
  const std::vector<int8_t> weights = constant_values<int8_t>(filter);
  const std::vector<int32_t> bias(r.bias.begin(), r.bias.end()), multipliers(r.multipliers.begin(), r.multipliers.end()),
      shifts(r.shifts.begin(), r.shifts.end());
  const microaot_depthwise_channels ch = {bias.empty() ? nullptr : bias.data(), multipliers.data(), shifts.data()};
  std::vector<int32_t> words(static_cast<size_t>(params.output_depth / 4) * form.words);
  for (int32_t c = 0; c < params.output_depth; c += 4) {
    form.write(&params, weights.data(), &ch, c, words.data() + (c / 4) * form.words);
  }
  for (const char* field : {"output_multiplier", "output_shift"}) call.params.replace_ints(field, {});
  call.derived.push_back(int32_constant(filter.name + "_groups", words));
  call.args.erase(call.args.begin() + kConvFilter, call.args.begin() + kConvBias + 1);
  call.args.insert(call.args.begin() + kConvFilter, derived_arg(static_cast<int>(call.derived.size()) - 1));
  // A ring-only layer's own source, as depthwise_conv_2d_s8_ring's: no patch or unrolled windows linked.
  call.stem = ring_only ? form.ring_stem : form.stem;
  call.specialisation += std::string("; each channel group's constants (") + form.why + std::to_string(form.words * 4) +
                         " bytes a group of 4 channels";
}

KernelCall lower(const Graph& graph, const Op& op) {
  const DepthwiseConv2DOptions& options = options_of(graph, op);
  const int channels = output_channels(graph, op);
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options), channels);
  const ConvTensors t = conv_tensors(graph, op);
  return make_conv_call(graph, op, "depthwise_conv_2d", g, {"depth_multiplier", options.depth_multiplier},
                        options.activation, channels, accumulator(graph, t));
}

// Palettised filters where --compress-weights takes them: each channel's taps a row of the palette. On a DSP
// target through the DSP palette kernel where it takes the layer (`dsp_fits`; its ring-only build where `ring_only`),
// else the portable one, saying why.
bool use_palette_filter(const Graph& graph, const Op& op, const Target& target, KernelCall& call, bool dsp_fits,
                        bool ring_only) {
  const Tensor& filter = graph.tensor(conv_tensors(graph, op).filter);
  const int32_t channels = output_channels(graph, op);
  const auto taps = static_cast<int32_t>(filter.num_elements() / channels);
  const std::vector<int8_t> rows = depthwise_channel_rows(constant_values<int8_t>(filter), taps, channels);
  if (dsp_fits && use_widened_palette_weights(target, call, filter, rows, channels, taps, ring_only)) return true;
  if (!use_palette_weights(target, call, filter, rows, channels, taps, "depthwise_conv_2d_s8_palette")) return false;
  if (target.kernels_use_dsp() && !dsp_fits) {
    call.specialisation += "; the portable palette kernel: the DSP one takes 3x3 filters without dilation, depth "
                           "multiplier 1, whole groups of 4 channels, requantization within the DSP bounds";
  }
  return true;
}

// The int8 family's chooser (compile/choose_variants.h): palettised filters, else the DSP kernels. The ring's and
// the multiplier's own kernels refuse (a status) a layer outside their rules
// (runtime/include/microaot/fit/depthwise_conv_2d.h): such a layer keeps the full kernel, which takes the portable
// code for it.
void choose(const Graph& graph, const Op& op, const Target& target, KernelCall& call) {
  const ConvTensors t = conv_tensors(graph, op);
  if (graph.tensor(t.filter).dtype != DType::kInt8) return;
  const DepthwiseRequantization requantization = requantization_of(graph, call, t.bias);
  const bool fits = depthwise_dsp_requantization_fits(requantization);
  const microaot_depthwise_conv_2d_params_q params = MICROAOT_PARAMS_STRUCT(depthwise_conv_2d_params_q, call.params);
  const bool palette_fits = fits && microaot_fit_depthwise_widened_palette(&params);
  if (use_palette_filter(graph, op, target, call, palette_fits, microaot_fit_depthwise_ring_palette(&params)) ||
      !target_runs_isa(target, "dsp")) {
    return;
  }
  const DepthwiseConv2DOptions& options = options_of(graph, op);
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options), output_channels(graph, op));
  // Every multiplier >= 2, 4k too (micro_speech's 8: its pair path is faster than the full kernel's tap by tap),
  // and requantizations that shift left, which only the multiplier kernel takes; the strip's stem where it takes the
  // layer (microaot_fit_depthwise_multiplier_strip_tile).
  const bool left = !fits && depthwise_dsp_left_shifts_fit(requantization);
  if ((fits || left) && microaot_fit_depthwise_multiplier(&params)) {
    call.stem = depthwise_multiplier_strip_tile(params, requantization) > 0 ? "depthwise_conv_2d_s8_multiplier_strip"
                                                                            : "depthwise_conv_2d_s8_multiplier";
    call.specialisation = depthwise_multiplier_path(params, requantization);
    return;
  }
  call.specialisation = depthwise_dsp_path(g, options.depth_multiplier, fits);
  const bool ring_only = fits && depthwise_dsp_ring_only(g, options.depth_multiplier);
  // The compact words replace a bias too: without one they would take 16 bytes a group more than the int8 form.
  if (fits && microaot_fit_depthwise_widened_palette(&params) && target.packed_int16_weights()) {
    use_group_words(graph, call, params, requantization, ring_only, kWidenedGroupWords);
  } else if (fits && microaot_fit_depthwise_widened_palette(&params) && t.bias != kNoTensor) {
    use_group_words(graph, call, params, requantization, ring_only, kCompactGroupWords);
  } else if (ring_only) {
    use_ring_kernel(graph, call);
  }
}

// Each output row is built in a row of scratch and stored behind the read head.
std::vector<InPlaceOption> in_place(const Graph& graph, const Op& op) {
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options_of(graph, op)), output_channels(graph, op));
  return {conv_in_place_option(graph, op, g)};
}

int64_t macs(const Graph& graph, const Op& op) {
  const Tensor& output = graph.tensor(output_id(graph, op, kConvOutput));
  const Tensor& filter = graph.tensor(input_id(graph, op, kConvFilter));
  return output.num_elements() * filter.shape[1] * filter.shape[2];
}

}  // namespace

extern const OpHandler depthwise_conv_2d_handler = {check,         lower, macs, /*is_view=*/false, in_place,
                                                    read_options, /*state_copy_bytes=*/nullptr, choose};

}  // namespace microaot
