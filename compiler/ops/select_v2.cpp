// SELECT_V2: output = condition ? x : y element by element, the bool condition, x and y broadcast together
// (ranks up to 6), as TFLM's reference kernel (tflite-micro select.cc), for float32, int8 and int16 x and y.
// Elements are moved as they are (TFLM does not rescale quantized values), by one byte-generic kernel.
#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"

namespace microaot {
namespace {

// TFLite's SELECT_V2 versions: 1, and 2 for uint32 (refused: TFLM's kernel takes float32, int8 and int16).
constexpr int kMaxVersion = 2;

// TFLM also takes condition, x, y and output of one element each whatever their shapes ("mixed scalars").
bool all_single_elements(const Graph& graph, const Op& op) {
  for (int id : {op.inputs[0], op.inputs[1], op.inputs[2], op.outputs[0]}) {
    if (graph.tensor(id).num_elements() != 1) return false;
  }
  return true;
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 3, 3, 1);
  expect_version(graph, op, kMaxVersion);
  expect_dtype(graph, op, input_id(graph, op, 0), "input 0", {DType::kBool});
  const DType type = graph.tensor(input_id(graph, op, 1)).dtype;
  expect_dtype(graph, op, op.inputs[1], "input 1", {DType::kFloat32, DType::kInt8, DType::kInt16});
  expect_dtype(graph, op, input_id(graph, op, 2), "input 2", {type});
  expect_dtype(graph, op, output_id(graph, op, 0), "output 0", {type});
  if (!all_single_elements(graph, op)) check_broadcast_shapes(graph, op);
}

KernelCall lower(const Graph& graph, const Op& op) {
  KernelCall call = broadcast_call(graph, op, /*byte_generic=*/true);
  call.params.set_int("element_size", static_cast<int64_t>(dtype_size(graph.tensor(op.outputs[0]).dtype)));
  return call;
}

}  // namespace

extern const OpHandler select_v2_handler = {check, lower, binary_macs, /*is_view=*/false, binary_in_place};

}  // namespace microaot
