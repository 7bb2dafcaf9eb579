// DYNAMIC_UPDATE_SLICE, as TFLite Micro's kernel (dynamic_update_slice.cc): the operand with the update
// written over it at start indices (int32 or int64, one per dimension) that may arrive at run time. A start
// out of range is clamped into [0, operand dim - update dim], not refused, as TFLM does; the kernel does it,
// so constant and run-time indices behave alike. Byte-generic kernel. No in-place option: the planner may
// overlap an output with a shift, and the kernel's operand copy is a memcpy.
#include <string>
#include <vector>

#include "microaot/kernels/dynamic_update_slice.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 3;

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 3, 3, 1);
  const int operand = input_id(graph, op, 0), update = input_id(graph, op, 1);
  const int starts = input_id(graph, op, 2), out = output_id(graph, op, 0);
  expect_dtype(graph, op, out, "output 0", {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32});
  expect_same_type(graph, op, 0);
  expect_same_type(graph, op, 1);
  expect_dtype(graph, op, starts, "input 2", {DType::kInt32, DType::kInt64});
  expect_known_shape(graph, op, operand, "input 0");
  expect_known_shape(graph, op, update, "input 1");
  expect_known_shape(graph, op, starts, "input 2");
  for (int id : {operand, update}) expect_dims_product_fits(graph, op, id, input_role(op, id));
  const std::vector<int32_t>& operand_shape = graph.tensor(operand).shape;
  const std::vector<int32_t>& update_shape = graph.tensor(update).shape;
  expect_tensor(graph.tensor(out).shape == operand_shape, graph, op, out, "output 0", "its shape is not input 0's");
  expect_tensor(operand_shape.size() <= MICROAOT_DYNAMIC_UPDATE_SLICE_MAX_RANK, graph, op, operand, "input 0",
                "has rank above " + std::to_string(MICROAOT_DYNAMIC_UPDATE_SLICE_MAX_RANK));
  expect_tensor(update_shape.size() == operand_shape.size(), graph, op, update, "input 1",
                "its rank is not input 0's");
  for (size_t d = 0; d < update_shape.size(); ++d) {
    expect_tensor(update_shape[d] <= operand_shape[d], graph, op, update, "input 1",
                  "dimension " + std::to_string(d) + " is larger than input 0's");
  }
  expect_rank(graph, op, starts, "input 2", 1);
  expect_tensor(graph.tensor(starts).shape[0] == static_cast<int32_t>(operand_shape.size()), graph, op, starts,
                "input 2", "must have one entry per dimension of input 0");
}

// A scalar is walked as one element of rank 1 (the kernel reads no start where the update fills the dimension).
KernelCall lower(const Graph& graph, const Op& op) {
  std::vector<int32_t> operand_dims = graph.tensor(op.inputs[0]).shape;
  std::vector<int32_t> update_dims = graph.tensor(op.inputs[1]).shape;
  if (operand_dims.empty()) operand_dims = update_dims = {1};
  KernelCall call;
  call.stem = "dynamic_update_slice";
  call.args = {op.inputs[0], op.inputs[1], op.inputs[2], op.outputs[0]};
  call.params.set_int("rank", static_cast<int64_t>(operand_dims.size()));
  call.params.set_int("element_bytes", static_cast<int64_t>(dtype_size(graph.tensor(op.inputs[0]).dtype)));
  call.params.set_int("index_bytes", static_cast<int64_t>(dtype_size(graph.tensor(op.inputs[2]).dtype)));
  call.params.set_ints("operand_dims", std::vector<int64_t>(operand_dims.begin(), operand_dims.end()));
  call.params.set_ints("update_dims", std::vector<int64_t>(update_dims.begin(), update_dims.end()));
  return call;
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler dynamic_update_slice_handler = {check, lower, macs, /*is_view=*/false,
                                                        /*in_place=*/nullptr};

}  // namespace microaot
