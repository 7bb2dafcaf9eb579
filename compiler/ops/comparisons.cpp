// EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER and GREATER_EQUAL with broadcasting (ranks up to 6) and a bool
// output, as TFLM's reference kernels (tflite-micro comparisons.cc): int8 inputs are compared on a common
// scale, each brought to (q - zero point) * 2^8 times its own scale in fixed point; float, int32, int64 (and,
// for EQUAL and NOT_EQUAL, bool) values are compared as they are.
#include <string>

#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"

namespace microaot {
namespace {

constexpr int kLeftShift = 8;

// TFLite's highest version of each comparison (2 int8; EQUAL 3 string, 4 int16; NOT_EQUAL 3 string; LESS and
// GREATER_EQUAL 3 int16): TFLM's kernels take neither string nor int16 (GREATER's int16 path reads rescaling
// parameters that its Prepare never sets).
int max_version(OpKind kind) {
  switch (kind) {
    case OpKind::Equal: return 4;
    case OpKind::NotEqual:
    case OpKind::Less:
    case OpKind::GreaterEqual: return 3;
    default: return 2;
  }
}

bool is_equality(OpKind kind) { return kind == OpKind::Equal || kind == OpKind::NotEqual; }

// TFLM turns each int8 scale into a fixed-point multiplier below one.
void check_int8_scales(const Graph& graph, const Op& op) {
  for (int i = 0; i < 2; ++i) {
    const std::string role = "input " + std::to_string(i);
    expect_activation_quant(graph, op, op.inputs[i], role);
    expect_tensor(graph.tensor(op.inputs[i]).quant.scale[0] < 1.0f, graph, op, op.inputs[i], role,
                  "scale must be below 1 (TFLM rescales int8 comparisons by the scale itself)");
  }
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, max_version(op.kind));
  const DType type =
      is_equality(op.kind)
          ? check_binary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt32, DType::kInt64, DType::kBool},
                            DType::kBool)
          : check_binary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt32, DType::kInt64}, DType::kBool);
  if (type == DType::kInt8) check_int8_scales(graph, op);
}

KernelCall lower(const Graph& graph, const Op& op) {
  KernelCall call = broadcast_call(graph, op);  // less_s8, equal_bool, ...
  if (graph.tensor(op.inputs[0]).dtype != DType::kInt8) return call;
  InputRescale rescale;
  rescale.left_shift = kLeftShift;
  rescale.real1 = static_cast<double>(graph.tensor(op.inputs[0]).quant.scale[0]);
  rescale.real2 = static_cast<double>(graph.tensor(op.inputs[1]).quant.scale[0]);
  set_input_rescale_params(graph, op, rescale, call);
  return call;
}

}  // namespace

extern const OpHandler equal_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler not_equal_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler less_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler less_equal_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler greater_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler greater_equal_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};

}  // namespace microaot
