// The element-wise operators with two inputs whose kernels need nothing but the broadcast walk (ranks up to
// 6), as TFLM's reference kernels: MAXIMUM and MINIMUM (quantized values compared and copied as they are, as
// TFLM does), FLOOR_DIV and FLOOR_MOD (float), LOGICAL_AND and LOGICAL_OR (bool).
#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"

namespace microaot {
namespace {

// The types TFLM's kernel of each operator takes, and TFLite's highest version of it.
void check(const Graph& graph, const Op& op) {
  switch (op.kind) {
    case OpKind::Maximum:
    case OpKind::Minimum:  // versions 2 int8, 3 broadcast above 4D, 4 int16
      expect_version(graph, op, 4);
      check_binary_op(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64});
      return;
    case OpKind::FloorDiv:  // versions 2 float, 3 int8 and int16 (refused: TFLM's kernel is float only)
    case OpKind::FloorMod:  // version 2 int8 and int16 (refused likewise)
      expect_version(graph, op, op.kind == OpKind::FloorDiv ? 3 : 2);
      check_binary_op(graph, op, {DType::kFloat32});
      return;
    default:  // LOGICAL_AND, LOGICAL_OR
      expect_version(graph, op, 1);
      check_binary_op(graph, op, {DType::kBool});
  }
}

KernelCall lower(const Graph& graph, const Op& op) { return broadcast_call(graph, op); }

}  // namespace

extern const OpHandler maximum_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler minimum_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler floor_div_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler floor_mod_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler logical_and_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};
extern const OpHandler logical_or_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};

}  // namespace microaot
