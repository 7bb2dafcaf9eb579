// CONV_2D: int8 (per-channel or per-tensor int8 weights, optional int32 bias), int16 activations with int8
// weights (16x8: an int64 bias, or an int32 one, which TFLM sums in 32 bits), float32 and hybrid (float32
// activations, symmetric int8 weights; versions 2 and 5), with SAME/VALID padding, strides, dilation and
// grouped filters (filter depth dividing the input depth), as TFLite Micro's reference kernels. Versions up
// to 8 pass: the type checks refuse what the later ones add (int4).
#include <string>
#include <vector>

#include "kernels/params_struct.h"
#include "microaot/fit/mve_matmul.h"
#include "microaot/kernels/packed.h"
#include "ops/conv_common.h"
#include "ops/hybrid_weights.h"
#include "ops/mve_weights.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/packed_weights.h"
#include "ops/palette_weights.h"
#include "ops/read_options.h"
#include "ops/weighted_accumulator.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 8;
constexpr int kFilterChannelAxis = 0;  // OHWI

const Conv2DOptions& options_of(const Graph& graph, const Op& op) {
  const auto* options = options_if<Conv2DOptions>(op);
  expect_op(options != nullptr, graph, op, "has no Conv2DOptions");
  return *options;
}

OpOptions read_options(const Graph& g, const Op& op, const tflite::Operator& source) {
  const auto& o = required_options<tflite::Conv2DOptions>(g, op, source, "Conv2DOptions");
  Conv2DOptions r;
  r.padding = read_padding(g, op, o.padding());
  r.stride_w = read_positive(g, op, "stride_w", o.stride_w());
  r.stride_h = read_positive(g, op, "stride_h", o.stride_h());
  r.dilation_w = read_positive(g, op, "dilation_w_factor", o.dilation_w_factor());
  r.dilation_h = read_positive(g, op, "dilation_h_factor", o.dilation_h_factor());
  r.activation = read_activation(g, op, o.fused_activation_function());
  r.int32_bias = o.quantized_bias_type() == tflite::TensorType::INT32;
  return r;
}

ConvWindow window_of(const Conv2DOptions& o) {
  return {o.padding, o.stride_h, o.stride_w, o.dilation_h, o.dilation_w, o.activation, o.explicit_padding};
}

int filter_dim(const Graph& graph, const Op& op, int dim) {
  return graph.tensor(input_id(graph, op, kConvFilter)).shape[dim];
}

DType accumulator(const Graph& graph, const Op& op, const ConvTensors& t) {
  return accumulator_type(graph, t.input, t.bias, options_of(graph, op).int32_bias);
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 2, 3, 1);
  const Conv2DOptions& options = options_of(graph, op);
  const ConvTensors t = conv_tensors(graph, op);
  const DType type = check_conv_types(graph, op, t, {DType::kInt64, DType::kInt32}, HybridFilters::kAccepted);
  const int filter = input_id(graph, op, kConvFilter);
  expect_rank(graph, op, filter, "input 1", 4);
  const int channels = filter_dim(graph, op, 0);
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options), channels);
  const int filter_depth = filter_dim(graph, op, 3);
  expect_tensor(g.input_c % filter_depth == 0, graph, op, filter, "input 1",
                "filter depth " + std::to_string(filter_depth) + " does not divide the input depth " +
                    std::to_string(g.input_c));
  const int groups = g.input_c / filter_depth;
  expect_tensor(channels % groups == 0, graph, op, filter, "input 1",
                std::to_string(channels) + " output channels cannot be split into " + std::to_string(groups) +
                    " groups");
  check_conv_constants(graph, op, t, channels);
  if (type != DType::kFloat32) {
    check_conv_quantization(graph, op, t, options.activation, channels, kFilterChannelAxis, accumulator(graph, op, t));
  } else if (is_hybrid(graph, t.input, t.filter)) {
    check_hybrid_weights(graph, op, t.filter, channels, kFilterChannelAxis);
  }
}

// Why an int8 convolution keeps the unpacked kernel on this target, empty when it takes a packed one: a matrix
// product over the output pixels' windows (kh * kw * input depth elements, the input pixel itself for a 1x1
// filter without padding), where the input zero point folds into the bias exactly (padding taps hold it).
std::string packed_conv_refusal(const Target& target, const ConvGeometry& g, int filter_depth) {
  if (target.kernels_use_dsp() && filter_depth != g.input_c) return "not packed: grouped filter";
  return packed_refusal(target, g.output_c, 0, kPackedConvMinUnits);
}

bool is_matrix_product(const ConvGeometry& g) {
  return g.filter_h == 1 && g.filter_w == 1 && g.pad_h == 0 && g.pad_w == 0;
}

// Palettised filters through a DSP palette kernel: for a matrix product the k x k one where its block fits the
// plan's room, else the 1x1 one; the k x k one for any other window.
bool use_dsp_palette(const Graph& graph, const Op& op, const Target& target, KernelCall& call, const ConvGeometry& g,
                     int64_t pixels) {
  const Tensor& filter = graph.tensor(input_id(graph, op, kConvFilter));
  if (is_matrix_product(g)) {
    return use_pointwise_kxk_palette_weights(graph, op, target, call, filter, g.output_c, g.input_c) ||
           use_packed_palette_weights(graph, op, target, call, filter, g.output_c, g.input_c, pixels);
  }
  return use_packed_kxk_palette_weights(graph, target, call, filter, g.output_c, g.filter_h * g.filter_w * g.input_c);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Conv2DOptions& options = options_of(graph, op);
  const int channels = filter_dim(graph, op, 0);
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options), channels);
  return make_conv_call(graph, op, "conv_2d", g, {"filter_depth", filter_dim(graph, op, 3)}, options.activation,
                        channels, accumulator(graph, op, conv_tensors(graph, op)));
}

// The int8 family's chooser (compile/choose_variants.h): on an MVE target the Helium rows over a folded bias;
// else palettised filters where --compress-weights takes them
// (through the DSP palette kernel for a packed 1x1 product where its decode pays), else a packed matrix product,
// over the input pixels (1x1) or the gathered windows (k x k), or why not. The 16x8 family's too: on a DSP target
// the packed 16x8 windows where their sums fit int32 (use_packed_s16_weights), else its DSP kernel, and why.
void choose(const Graph& graph, const Op& op, const Target& target, KernelCall& call) {
  const int channels = filter_dim(graph, op, 0);
  const Tensor& filter = graph.tensor(input_id(graph, op, kConvFilter));
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options_of(graph, op)), channels);
  const int64_t pixels = int64_t{g.batches} * g.output_h * g.output_w;
  if (call.stem == "conv_2d_s16") {
    if (target.kernels_use_mve()) return;
    call.specialisation = packed_conv_refusal(target, g, filter_dim(graph, op, 3));
    const int32_t window = g.filter_h * g.filter_w * g.input_c;
    const PackedS16 layer = {"conv_2d_s16_packed", channels, window,
                             MICROAOT_PACKED_S16_BYTES(int64_t{window}, channels), "a window",
                             "each output pixel's window in SMLAD's lane order, 3 pixels x 2 channels per step"};
    if (call.specialisation.empty()) use_packed_s16_weights(graph, target, call, layer);
    return;
  }
  if (target.kernels_use_mve()) {
    const microaot_conv_2d_params_q params = MICROAOT_PARAMS_STRUCT(conv_2d_params_q, call.params);
    use_mve_folded_bias(graph, call, "conv_2d_s8_mve", channels, g.filter_h * g.filter_w * g.input_c,
                        microaot_fit_mve_conv(&params) != 0, mve_blocking(pixels, true));
    return;
  }
  if (filter_dim(graph, op, 3) == g.input_c && use_dsp_palette(graph, op, target, call, g, pixels)) return;
  if (use_palette_weights(target, call, filter, constant_values<int8_t>(filter), channels,
                          static_cast<int32_t>(filter.num_elements() / channels), "conv_2d_s8_palette")) {
    if (target.kernels_use_dsp() && !is_matrix_product(g)) {
      const std::string why = packed_kxk_palette_refusal(target, channels, filter.num_elements() / channels,
                                                         filter_dim(graph, op, 3) != g.input_c);
      call.specialisation += "; not the k x k DSP palette kernel: " +
                             (why.empty() ? std::string("the packed k x k kernel does not take the layer") : why);
    }
    return;
  }
  call.specialisation = packed_conv_refusal(target, g, filter_dim(graph, op, 3));
  if (!call.specialisation.empty()) return;
  if (is_matrix_product(g)) {
    use_packed_weights(graph, target, call, "conv_2d_s8_packed", channels, g.input_c);
  } else {
    use_packed_window_weights(graph, target, call, "conv_2d_s8_packed_kxk", channels,
                              g.filter_h * g.filter_w * g.input_c);
  }
}

// Each output row is built in a row of scratch and stored behind the read head.
std::vector<InPlaceOption> in_place(const Graph& graph, const Op& op) {
  const ConvGeometry g = check_conv_geometry(graph, op, window_of(options_of(graph, op)), filter_dim(graph, op, 0));
  return {conv_in_place_option(graph, op, g)};
}

int64_t macs(const Graph& graph, const Op& op) {
  const Tensor& output = graph.tensor(output_id(graph, op, kConvOutput));
  const Tensor& filter = graph.tensor(input_id(graph, op, kConvFilter));
  return output.num_elements() * (filter.num_elements() / filter.shape[0]);  // taps per output value
}

}  // namespace

extern const OpHandler conv_2d_handler = {check,        lower, macs, /*is_view=*/false, in_place,
                                          read_options, /*state_copy_bytes=*/nullptr, choose};

}  // namespace microaot
