// ARG_MAX and ARG_MIN along one constant axis, int8 or float input, int32 output: the index of the first
// largest (smallest) element, as TFLite Micro's reference kernel (tflite-micro arg_min_max.cc) finds it with a
// strict comparison (so a NaN never wins). The axis is the reduced walk of the reduction template
// (ops/reduce_common.h). TFLM refuses an int64 output (TensorFlow's default output_type), so does microaot.
#include <string>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/reduce_common.h"

namespace microaot {
namespace {

// TFLite's versions: 1 float, 2 int8, 3 more input types (refused by the type checks).
constexpr int kMaxVersion = 3;

// Only the first value of the axis input counts, as in TFLM.
ReducePlan arg_plan(const Graph& graph, const Op& op) {
  const std::vector<int32_t> axes = constant_axis_values(graph, op, 1);
  expect_tensor(!axes.empty(), graph, op, op.inputs[1], "input 1", "holds no axis");
  const int rank = static_cast<int>(graph.tensor(op.inputs[0]).shape.size());
  return checked_reduce_plan(graph, op, reduced_dimensions(graph, op, {axes[0]}, rank));
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 2, 1);
  expect_version(graph, op, kMaxVersion);
  const int in = input_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kFloat32, DType::kInt8});
  expect_dtype(graph, op, output_id(graph, op, 0), "output 0", {DType::kInt32});
  expect_tensor(!graph.tensor(in).shape.empty(), graph, op, in, "input 0", "must have at least one dimension");
  arg_plan(graph, op);
}

KernelCall lower_arg(const Graph& graph, const Op& op, const char* name) {
  KernelCall call;
  call.stem = std::string(name) + "_" + dtype_short_name(graph.tensor(op.inputs[0]).dtype) + "_s32";
  call.args = {op.inputs[0], op.outputs[0]};
  set_reduce_walk_params(call, arg_plan(graph, op));
  return call;
}

KernelCall lower_max(const Graph& graph, const Op& op) { return lower_arg(graph, op, "arg_max"); }
KernelCall lower_min(const Graph& graph, const Op& op) { return lower_arg(graph, op, "arg_min"); }

// One comparison per input element.
int64_t macs(const Graph& graph, const Op& op) { return graph.tensor(op.inputs[0]).num_elements(); }

}  // namespace

// The options' output_type is not read: TFLM writes the output tensor's type.
extern const OpHandler arg_max_handler = {check, lower_max, macs, /*is_view=*/false, nullptr, nullptr};
extern const OpHandler arg_min_handler = {check, lower_min, macs, /*is_view=*/false, nullptr, nullptr};

}  // namespace microaot
