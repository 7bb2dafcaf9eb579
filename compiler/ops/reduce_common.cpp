#include "ops/reduce_common.h"

#include <string>

#include "microaot/walk.h"
#include "ops/op_checks.h"

namespace microaot {

namespace {
// Appends a dimension to the walk, merged into the last one when the two are contiguous.
void append(Walk& walk, int64_t size, int64_t stride) {
  if (!walk.shape.empty() && walk.strides.back() == stride * size) {
    walk.shape.back() *= size;
    walk.strides.back() = stride;
    return;
  }
  walk.shape.push_back(size);
  walk.strides.push_back(stride);
}

void ensure_not_empty(Walk& walk) {
  if (walk.shape.empty()) walk = {{1}, {0}};
}
}  // namespace

std::vector<int32_t> constant_axis_values(const Graph& graph, const Op& op, int index) {
  const int id = input_id(graph, op, index);
  const std::string role = "input " + std::to_string(index);
  expect_tensor(graph.tensor(id).is_constant, graph, op, id, role,
                "the axis must be a constant: the compiled plan fixes the dimensions it works on (an axis "
                "computed at run time is not supported)");
  expect_dtype(graph, op, id, role, {DType::kInt32});
  expect_constant_data(graph, op, id, role);
  return constant_values<int32_t>(graph.tensor(id));
}

int resolve_axis(const Graph& graph, const Op& op, int32_t axis, int rank) {
  expect_op(axis >= -rank && axis < rank, graph, op,
            "axis " + std::to_string(axis) + " is out of range for an input of rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

std::vector<bool> reduced_dimensions(const Graph& graph, const Op& op, const std::vector<int32_t>& axes, int rank) {
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  if (rank == 0) return reduced;  // a scalar is its own reduction; TFLM ignores the axes
  for (int32_t axis : axes) reduced[static_cast<size_t>(resolve_axis(graph, op, axis, rank))] = true;
  return reduced;
}

ReducePlan plan_reduce(const std::vector<int32_t>& shape, const std::vector<bool>& reduced) {
  ReducePlan plan;
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  for (size_t d = 0; d < shape.size(); ++d) {
    if (reduced[d]) plan.group_size *= shape[d];
    if (shape[d] != 1) append(reduced[d] ? plan.reduced : plan.kept, shape[d], strides[d]);
  }
  ensure_not_empty(plan.kept);
  ensure_not_empty(plan.reduced);
  return plan;
}

ReducePlan checked_reduce_plan(const Graph& graph, const Op& op, const std::vector<bool>& reduced) {
  const int in = op.inputs[0], out = op.outputs[0];
  for (int32_t dim : graph.tensor(in).shape) {
    expect_tensor(dim > 0, graph, op, in, "input 0", "has an empty or unknown dimension");
  }
  expect_tensor(graph.tensor(in).num_elements() <= INT32_MAX, graph, op, in, "input 0", "has too many elements");
  const ReducePlan plan = plan_reduce(graph.tensor(in).shape, reduced);
  expect_op(plan.kept.shape.size() <= MICROAOT_WALK_MAX_DIMS && plan.reduced.shape.size() <= MICROAOT_WALK_MAX_DIMS,
            graph, op, "the reduced and kept dimensions alternate more than " +
                           std::to_string(MICROAOT_WALK_MAX_DIMS) + " times");
  int64_t groups = 1;
  for (int64_t dim : plan.kept.shape) groups *= dim;
  expect_tensor(graph.tensor(out).num_elements() == groups, graph, op, out, "output 0",
                "has " + std::to_string(graph.tensor(out).num_elements()) + " elements, the reduction makes " +
                    std::to_string(groups));
  return plan;
}

void set_reduce_walk_params(KernelCall& call, const ReducePlan& plan) {
  call.params.set_int("kept_dims", static_cast<int64_t>(plan.kept.shape.size()));
  call.params.set_ints("kept_shape", plan.kept.shape);
  call.params.set_ints("kept_strides", plan.kept.strides);
  call.params.set_int("reduced_dims", static_cast<int64_t>(plan.reduced.shape.size()));
  call.params.set_ints("reduced_shape", plan.reduced.shape);
  call.params.set_ints("reduced_strides", plan.reduced.strides);
}

}  // namespace microaot
