// The element-wise math operators ABS, NEG, RSQRT, SQRT, SQUARE, EXP, LOG, SIN, COS, FLOOR, CEIL, ROUND and
// LOGICAL_NOT, as TFLite Micro's reference kernels (elementwise.cc, neg.cc, exp.cc, floor.cc, ...). They
// differ only in their kernel stem and types, so one table drives them and this file defines all their
// handlers; ABS and RSQRT add TFLM's quantized arithmetic (input_scale / output_scale for ABS,
// 1 / (sqrt(input_scale) * output_scale) after a fixed-point 1/sqrt for RSQRT).
#include <cmath>
#include <string>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/unary.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

// An operator whose only type is `type` (float math, LOGICAL_NOT): its kernel is `<stem>_<type>`.
struct SingleTypeOp {
  OpKind kind;
  const char* stem;
  DType type;
  int max_version;  // TFLite's versions of the operator; higher ones add types TFLM does not support
};

constexpr SingleTypeOp kSingleTypeOps[] = {
    {OpKind::Neg, "neg", DType::kFloat32, 2},       {OpKind::Sqrt, "sqrt", DType::kFloat32, 1},
    {OpKind::Square, "square", DType::kFloat32, 1}, {OpKind::Exp, "exp", DType::kFloat32, 2},
    {OpKind::Log, "log", DType::kFloat32, 2},       {OpKind::Sin, "sin", DType::kFloat32, 1},
    {OpKind::Cos, "cos", DType::kFloat32, 1},       {OpKind::Floor, "floor", DType::kFloat32, 1},
    {OpKind::Ceil, "ceil", DType::kFloat32, 1},     {OpKind::Round, "round", DType::kFloat32, 1},
    {OpKind::LogicalNot, "logical_not", DType::kBool, 1},
};

const SingleTypeOp& single_type_op(OpKind kind) {
  for (const SingleTypeOp& entry : kSingleTypeOps) {
    if (entry.kind == kind) return entry;
  }
  MICROAOT_CHECK(false, std::string("no math entry for ") + op_kind_name(kind));
}

void check_single_type(const Graph& graph, const Op& op) {
  const SingleTypeOp& entry = single_type_op(op.kind);
  expect_version(graph, op, entry.max_version);
  check_unary_op(graph, op, {entry.type});
}

KernelCall lower_single_type(const Graph& graph, const Op& op) {
  return unary_call(graph, op, single_type_op(op.kind).stem);
}

// ABS: int16 tensors may be unquantized (plain integers) or symmetric.
void check_abs(const Graph& graph, const Op& op) {
  expect_version(graph, op, 5);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type == DType::kInt16 && graph.tensor(op.inputs[0]).quant.empty()) return;
  if (type != DType::kFloat32) check_unary_quantization(graph, op, /*symmetric_int16=*/true);
}

KernelCall lower_abs(const Graph& graph, const Op& op) {
  KernelCall call = unary_call(graph, op, "abs");
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  if (input.dtype == DType::kFloat32) return call;
  if (input.quant.empty()) {  // plain integers: |x| with an exact multiplier of 1
    Tensor unquantized = input;
    unquantized.quant = {{1.0f}, {0}, 0};
    set_unary_rescale_params(call, unquantized, unquantized, 1.0, type_range(input.dtype));
    return call;
  }
  // TFLM divides the scales in float; with equal scales it skips the rescale, which a multiplier of 1 equals.
  const double multiplier = static_cast<double>(input.quant.scale[0] / output.quant.scale[0]);
  set_unary_rescale_params(call, input, output, multiplier, type_range(input.dtype));
  return call;
}

// 1 / (sqrt(input_scale) * output_scale), the square root and the product in float as TFLM.
double rsqrt_multiplier(const Graph& graph, const Op& op) {
  const float input_scale = graph.tensor(op.inputs[0]).quant.scale[0];
  const float denominator = std::sqrt(input_scale) * graph.tensor(op.outputs[0]).quant.scale[0];
  return 1.0 / static_cast<double>(denominator);
}

void check_rsqrt(const Graph& graph, const Op& op) {
  expect_version(graph, op, 3);
  const DType type = check_unary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16});
  if (type == DType::kFloat32) return;
  check_unary_quantization(graph, op, /*symmetric_int16=*/true);
  // The kernel applies the multiplier to 1/sqrt in units of 2^-20: its shift minus 20 must stay a valid
  // rounding shift (at most 31 to the right).
  expect_op(quantize_multiplier(rsqrt_multiplier(graph, op)).shift >= -11, graph, op,
            "1 / (sqrt(input scale) * output scale) is below 2^-12");
}

KernelCall lower_rsqrt(const Graph& graph, const Op& op) {
  KernelCall call = unary_call(graph, op, "rsqrt");
  const Tensor& input = graph.tensor(op.inputs[0]);
  if (input.dtype == DType::kFloat32) return call;
  set_unary_rescale_params(call, input, graph.tensor(op.outputs[0]), rsqrt_multiplier(graph, op),
                           type_range(input.dtype));
  return call;
}

}  // namespace

#define MICROAOT_SINGLE_TYPE_HANDLER(handler)                                                             \
  extern const OpHandler handler##_handler = {check_single_type, lower_single_type, unary_macs,           \
                                              /*is_view=*/false, unary_in_place, /*read_options=*/nullptr};
MICROAOT_SINGLE_TYPE_HANDLER(neg)
MICROAOT_SINGLE_TYPE_HANDLER(sqrt)
MICROAOT_SINGLE_TYPE_HANDLER(square)
MICROAOT_SINGLE_TYPE_HANDLER(exp)
MICROAOT_SINGLE_TYPE_HANDLER(log)
MICROAOT_SINGLE_TYPE_HANDLER(sin)
MICROAOT_SINGLE_TYPE_HANDLER(cos)
MICROAOT_SINGLE_TYPE_HANDLER(floor)
MICROAOT_SINGLE_TYPE_HANDLER(ceil)
MICROAOT_SINGLE_TYPE_HANDLER(round)
MICROAOT_SINGLE_TYPE_HANDLER(logical_not)
#undef MICROAOT_SINGLE_TYPE_HANDLER

extern const OpHandler abs_handler = {check_abs, lower_abs, unary_macs, /*is_view=*/false, unary_in_place, nullptr};
extern const OpHandler rsqrt_handler = {check_rsqrt, lower_rsqrt, unary_macs, /*is_view=*/false, unary_in_place,
                                        nullptr};

}  // namespace microaot
