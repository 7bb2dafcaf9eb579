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
  for (int32_t dim : input.shape) expect_tensor(dim >= 0, graph, op, in, "input 0", "has an unknown dimension");
  for (int32_t dim : output.shape) {
    expect_tensor(dim >= 0, graph, op, out, "output 0", "has an unknown dimension (-1 must be resolved)");
  }
  expect_tensor(output.num_elements() == input.num_elements(), graph, op, out, "output 0",
                "has " + std::to_string(output.num_elements()) + " elements, the input has " +
                    std::to_string(input.num_elements()));
}

KernelCall lower_view(const Graph&, const Op& op) {
  KernelCall call;
  call.is_alias = true;
  call.args = {op.inputs[0], op.outputs[0]};
  return call;
}

}  // namespace microaot
