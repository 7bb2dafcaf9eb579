// MUL with broadcasting (ranks up to 6): float, int8 and int16, as TFLite Micro's reference kernels
// (tflite-micro mul_common.cc): the product of the offset inputs rescaled by the multiplier of
// double(input1 scale) * double(input2 scale) / double(output scale); int16 tensors are symmetric.
// Broadcast planning and the checks MUL shares with ADD are in ops/broadcast.h.
#include "ops/broadcast.h"
#include "ops/mul_folded.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "ops/read_options.h"

namespace microaot {
namespace {

// TFLite's MUL versions: 1 float, 2-3 int8, 4-5 int16 and broadcast up to 6D; 6 and up add complex64,
// uint32 and int16 x int16 -> int8, which the type checks refuse.
constexpr int kMaxVersion = 7;

double real_multiplier(const Graph& graph, const Op& op) {
  return static_cast<double>(graph.tensor(op.inputs[0]).quant.scale[0]) *
         static_cast<double>(graph.tensor(op.inputs[1]).quant.scale[0]) /
         static_cast<double>(graph.tensor(op.outputs[0]).quant.scale[0]);
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  const DType type = check_binary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type != DType::kFloat32) check_binary_quantization(graph, op);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  KernelCall call = broadcast_call(graph, op);  // mul_s8, mul_s16, mul_f32
  set_activation_params(call, output, options_if<FusedActivationOptions>(op)->activation);
  if (output.dtype == DType::kFloat32) return call;
  set_input_offset_params(graph, op, call);
  set_output_rescale_params(graph, op, quantize_multiplier(real_multiplier(graph, op)), call);
  return call;
}

// The int8 family's chooser (compile/choose_variants.h): one operand broadcast folds into slopes and biases.
// A constant operand needs forms for its own values only.
void choose(const Graph& graph, const Op& op, const Target& target, KernelCall& call) {
  std::vector<std::vector<uint8_t>> constants;
  for (size_t k = 0; k < 2; ++k) {
    const Tensor& input = graph.tensor(op.inputs[k]);
    constants.push_back(input.is_constant ? input.data : std::vector<uint8_t>{});
  }
  use_mul_folded_form(call, target, constants);
}

}  // namespace

extern const OpHandler mul_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place,
                                     read_fused_activation<tflite::MulOptions>, /*state_copy_bytes=*/nullptr, choose};

}  // namespace microaot
