#include "ops/view_common.h"

#include <string>

#include "ops/op_checks.h"

namespace microaot {

void check_view(const Graph& graph, const Op& op) {
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  const Tensor& input = graph.tensor(in);
  const Tensor& output = graph.tensor(out);
  expect_tensor(input.dtype != DType::kUnsupported, graph, op, in, "input 0", "has an unsupported type");
  expect_tensor(output.dtype == input.dtype, graph, op, out, "output 0",
                std::string("type ") + dtype_name(output.dtype) + " differs from the input's " +
                    dtype_name(input.dtype));
  expect_same_elements(graph, op, in, out);
}

}  // namespace microaot
