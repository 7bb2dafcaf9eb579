// BROADCAST_TO, as TFLite Micro's kernel (broadcast_to.cc): a constant int32 / int64 shape of rank up to 5 that
// the input broadcasts to (the input's dimensions aligned to the end, each 1 or the shape's), every element type.
// Lowers to the remap kernel: a broadcast dimension has stride 0, so every coordinate reads the same bytes.
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr size_t kMaxRank = 5;  // TFLM's kMaxDims

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 3);
  expect_arity(graph, op, 2, 2, 1);
  expect_moved_tensors(graph, op, {DType::kFloat32, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32,
                                   DType::kInt64, DType::kBool});
  const std::vector<int32_t>& in = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t>& out = graph.tensor(op.outputs[0]).shape;
  const int shape = input_id(graph, op, 1);
  expect_rank(graph, op, shape, "shape", 1);
  const std::vector<int64_t> values = constant_ints(graph, op, shape, "shape");
  expect_tensor(out.size() <= kMaxRank, graph, op, op.outputs[0], "output 0", "rank above 5");
  expect_tensor(values == std::vector<int64_t>(out.begin(), out.end()), graph, op, shape, "shape",
                "is not the output's shape");
  expect_tensor(in.size() <= out.size(), graph, op, op.inputs[0], "input 0", "has more dimensions than the shape");
  const size_t extra = out.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) {
    expect_tensor(in[d] == 1 || in[d] == out[extra + d], graph, op, op.inputs[0], "input 0",
                  "dimension " + std::to_string(d) + " does not broadcast to the shape");
  }
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int32_t>& out = graph.tensor(op.outputs[0]).shape;
  const std::vector<int64_t> strides = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  const size_t extra = out.size() - input.shape.size();
  RemapTables tables;
  for (size_t d = 0; d < out.size(); ++d) {
    const bool repeated = d < extra || input.shape[d - extra] == 1;
    tables.add(stepped_offsets(out[d], 0, 1, repeated ? 0 : strides[d - extra]));
  }
  return remap_call(graph, op, tables);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler broadcast_to_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, nullptr};

}  // namespace microaot
