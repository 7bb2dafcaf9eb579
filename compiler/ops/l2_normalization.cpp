// L2_NORMALIZATION over the last dimension, float or int8, as TFLite Micro's reference kernels compute it
// (tflite-micro l2norm.cc): float divides by max(norm, 1e-6); int8 rescales the offset inputs by a fixed-point
// 1/sqrt of their sum of squares straight into TFLite's fixed output quantization, scale 1/128 and zero
// point 0 (TFLM does not read the output's parameters, so any others are refused rather than ignored).
#include <string>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"

namespace microaot {
namespace {

// TFLite's versions: 1 float, 2 int8.
constexpr int kMaxVersion = 2;
constexpr int kMaxRank = 4;  // TFLM's limit

// TFLM runs no fused activation here: one in the table is refused, so the op carries no options.
OpOptions read_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  const auto* table = source.builtin_options_as_L2NormOptions();
  if (table != nullptr && table->fused_activation_function() != tflite::ActivationFunctionType::NONE) {
    refuse_options(graph, op, "a fused activation is not supported (TFLite Micro has none for L2_NORMALIZATION)");
  }
  return {};
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 1, 1, 1);
  expect_version(graph, op, kMaxVersion);
  const int in = input_id(graph, op, 0), out = output_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kFloat32, DType::kInt8});
  expect_dtype(graph, op, out, "output 0", {graph.tensor(in).dtype});
  const size_t rank = graph.tensor(in).shape.size();
  expect_tensor(rank >= 1 && rank <= kMaxRank, graph, op, in, "input 0",
                "rank " + std::to_string(rank) + " is not supported (1 to 4, as TFLite Micro)");
  expect_tensor(graph.tensor(out).shape == graph.tensor(in).shape, graph, op, out, "output 0",
                "must have the input's shape");
  expect_same_elements(graph, op, in, out);
  if (graph.tensor(in).dtype != DType::kInt8) return;
  expect_activation_quant(graph, op, in, "input 0");
  expect_per_tensor_quant(graph, op, out, "output 0");
  const Quantization& q = graph.tensor(out).quant;
  expect_tensor(q.scale[0] == 1.0f / 128 && q.zero_point[0] == 0, graph, op, out, "output 0",
                "int8 output needs scale 1/128 and zero point 0 (the kernel writes that quantization)");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const int64_t depth = input.shape.back();
  KernelCall call;
  call.stem = std::string("l2_normalization_") + dtype_short_name(input.dtype);
  call.args = {op.inputs[0], op.outputs[0]};
  call.params.set_int("outer", depth == 0 ? 0 : input.num_elements() / depth);
  call.params.set_int("depth", depth);
  if (input.dtype == DType::kInt8) call.params.set_int("input_offset", -input.quant.zero_point[0]);
  return call;
}

// A square and a scaling per element.
int64_t macs(const Graph& graph, const Op& op) { return 2 * graph.tensor(op.inputs[0]).num_elements(); }

}  // namespace

extern const OpHandler l2_normalization_handler = {check, lower, macs, /*is_view=*/false, nullptr, read_options};

}  // namespace microaot
