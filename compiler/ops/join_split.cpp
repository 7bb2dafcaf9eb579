// Byte ranges of the concatenation and split kernels: per piece, its bytes from the axis on.
#include "ops/join_split.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

// Per tensor of `ids`: its bytes from `axis` to its last dimension.
std::vector<int64_t> bytes_from_axis(const Graph& graph, const std::vector<int>& ids, size_t axis) {
  std::vector<int64_t> bytes;
  for (int id : ids) {
    const Tensor& t = graph.tensor(id);
    bytes.push_back(dims_product(t.shape, axis, t.shape.size()) * static_cast<int64_t>(dtype_size(t.dtype)));
  }
  return bytes;
}

// "input k" or "output k": the pieces are PACK's inputs or UNPACK's outputs.
std::string tensor_role(const Op& op, int id) {
  const auto at = std::find(op.outputs.begin(), op.outputs.end(), id);
  return at == op.outputs.end() ? input_role(op, id) : "output " + std::to_string(at - op.outputs.begin());
}

}  // namespace

KernelCall concatenation_call(const Graph& graph, const Op& op, size_t axis) {
  KernelCall call;
  call.stem = "concatenation";
  call.args = op.inputs;
  call.args.push_back(op.outputs[0]);
  call.params.set_int("outer_count", dims_product(graph.tensor(op.outputs[0]).shape, 0, axis));
  call.params.set_int("input_count", static_cast<int64_t>(op.inputs.size()));
  call.params.set_ints("slice_bytes", bytes_from_axis(graph, op.inputs, axis));
  return call;
}

KernelCall split_call(const Graph& graph, const Op& op, int input_index, size_t axis) {
  const int input = op.inputs[static_cast<size_t>(input_index)];
  KernelCall call;
  call.stem = "split";
  call.args.push_back(input);
  call.args.insert(call.args.end(), op.outputs.begin(), op.outputs.end());
  call.params.set_int("outer_count", dims_product(graph.tensor(input).shape, 0, axis));
  call.params.set_int("output_count", static_cast<int64_t>(op.outputs.size()));
  call.params.set_ints("slice_bytes", bytes_from_axis(graph, op.outputs, axis));
  return call;
}

void expect_stacked(const Graph& graph, const Op& op, int stacked_id, const std::vector<int>& pieces, size_t axis) {
  std::vector<int32_t> piece_shape = graph.tensor(stacked_id).shape;
  const std::string role = tensor_role(op, stacked_id);
  expect_tensor(axis < piece_shape.size() && piece_shape[axis] == static_cast<int64_t>(pieces.size()), graph, op,
                stacked_id, role, "its dimension " + std::to_string(axis) + " is not the number of pieces (" +
                std::to_string(pieces.size()) + ")");
  piece_shape.erase(piece_shape.begin() + static_cast<std::ptrdiff_t>(axis));
  for (int id : pieces) {
    expect_tensor(graph.tensor(id).shape == piece_shape, graph, op, id, tensor_role(op, id),
                  "its shape is not the stacked tensor's without dimension " + std::to_string(axis));
  }
}

void expect_outputs_typed_as_input(const Graph& graph, const Op& op, int input_index) {
  const DType type = graph.tensor(input_id(graph, op, input_index)).dtype;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const int out = output_id(graph, op, static_cast<int>(i));
    expect_tensor(graph.tensor(out).dtype == type, graph, op, out, "output " + std::to_string(i),
                  "has a type other than input " + std::to_string(input_index) + "'s");
  }
}

}  // namespace microaot
