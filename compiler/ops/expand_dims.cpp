// EXPAND_DIMS: a size-1 dimension inserted at a constant axis (negative counts from the end of the output),
// a view of its input (ops/view_common.h): no kernel runs.
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"
#include "ops/view_common.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 2, 1);
  check_view(graph, op);
  const int axis_id = input_id(graph, op, 1);
  const std::vector<int64_t> axis = constant_ints(graph, op, axis_id, "axis");
  expect_tensor(axis.size() == 1, graph, op, axis_id, "axis", "is not one value");
  std::vector<int32_t> shape = graph.tensor(op.inputs[0]).shape;
  const int64_t rank = static_cast<int64_t>(shape.size()) + 1;
  expect_tensor(axis[0] >= -rank && axis[0] < rank, graph, op, axis_id, "axis",
                std::to_string(axis[0]) + " is outside the output's rank");
  shape.insert(shape.begin() + (axis[0] < 0 ? axis[0] + rank : axis[0]), 1);
  expect_tensor(shape == graph.tensor(op.outputs[0]).shape, graph, op, op.outputs[0], "output 0",
                "its shape is not the input's with a 1 at the axis");
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler expand_dims_handler = {check, /*lower=*/nullptr, macs, /*is_view=*/true};

}  // namespace microaot
