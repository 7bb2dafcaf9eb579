// DEPTH_TO_SPACE and SPACE_TO_DEPTH, as TFLite Micro's kernels (depth_to_space.cc, space_to_depth.cc): NHWC,
// rank 4, float32 / int8, a positive block size b. The depth axis holds the b x b block in row-major order
// ((row in block * b + column in block) * depth + channel). Both lower to the remap kernel: each output
// coordinate splits into the input coordinates it names, and their byte offsets add up.
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/read_options.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

OpOptions read_depth_to_space_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  const auto& table = required_options<tflite::DepthToSpaceOptions>(graph, op, source, "DepthToSpaceOptions");
  return BlockSizeOptions{read_positive(graph, op, "block_size", table.block_size())};
}

OpOptions read_space_to_depth_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  const auto& table = required_options<tflite::SpaceToDepthOptions>(graph, op, source, "SpaceToDepthOptions");
  return BlockSizeOptions{read_positive(graph, op, "block_size", table.block_size())};
}

int64_t block_size(const Graph& graph, const Op& op) {
  const BlockSizeOptions* options = options_if<BlockSizeOptions>(op);
  expect_op(options != nullptr, graph, op, "has no block_size");
  return options->block_size;
}

// The output's shape the block size makes of the input's, in 64 bits (hostile sizes must not wrap).
std::vector<int64_t> expected_shape(const Graph& graph, const Op& op) {
  const std::vector<int32_t>& in = graph.tensor(op.inputs[0]).shape;
  const int64_t b = block_size(graph, op);
  if (op.kind == OpKind::DepthToSpace) {
    expect_tensor(in[3] % (b * b) == 0, graph, op, op.inputs[0], "input 0",
                  "depth is not a multiple of block_size squared");
    return {in[0], in[1] * b, in[2] * b, in[3] / (b * b)};
  }
  expect_tensor(in[1] % b == 0 && in[2] % b == 0, graph, op, op.inputs[0], "input 0",
                "height and width are not multiples of block_size");
  return {in[0], in[1] / b, in[2] / b, in[3] * b * b};
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 2);
  expect_arity(graph, op, 1, 1, 1);
  expect_moved_tensors(graph, op, {DType::kFloat32, DType::kInt8});
  expect_rank(graph, op, op.inputs[0], "input 0", 4);
  expect_rank(graph, op, op.outputs[0], "output 0", 4);
  const std::vector<int32_t>& out = graph.tensor(op.outputs[0]).shape;
  expect_tensor(expected_shape(graph, op) == std::vector<int64_t>(out.begin(), out.end()), graph, op, op.outputs[0],
                "output 0", "its shape is not the input's rearranged by block_size");
}

// Output (n, h, w, c) reads input (n, h / b, w / b, ((h % b) * b + w % b) * depth + c).
RemapTables depth_to_space_tables(const std::vector<int64_t>& stride, const std::vector<int32_t>& out, int64_t b) {
  const int64_t depth = out[3];
  RemapTables tables;
  tables.add(stepped_offsets(out[0], 0, 1, stride[0]));
  tables.add(mapped_offsets(out[1], [&](int64_t h) { return h / b * stride[1] + h % b * b * depth * stride[3]; }));
  tables.add(mapped_offsets(out[2], [&](int64_t w) { return w / b * stride[2] + w % b * depth * stride[3]; }));
  tables.add(stepped_offsets(depth, 0, 1, stride[3]));
  return tables;
}

// Output (n, h, w, c) reads input (n, h * b + k / b, w * b + k % b, c % depth), k = c / depth.
RemapTables space_to_depth_tables(const std::vector<int64_t>& stride, const std::vector<int32_t>& out,
                                  int64_t depth, int64_t b) {
  RemapTables tables;
  tables.add(stepped_offsets(out[0], 0, 1, stride[0]));
  tables.add(stepped_offsets(out[1], 0, b, stride[1]));
  tables.add(stepped_offsets(out[2], 0, b, stride[2]));
  tables.add(mapped_offsets(out[3], [&](int64_t c) {
    const int64_t k = c / depth;
    return k / b * stride[1] + k % b * stride[2] + c % depth * stride[3];
  }));
  return tables;
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int32_t>& out = graph.tensor(op.outputs[0]).shape;
  const std::vector<int64_t> stride = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  const int64_t b = block_size(graph, op);
  return remap_call(graph, op, op.kind == OpKind::DepthToSpace ? depth_to_space_tables(stride, out, b)
                                                               : space_to_depth_tables(stride, out, input.shape[3], b));
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler depth_to_space_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                                 read_depth_to_space_options};
extern const OpHandler space_to_depth_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                                 read_space_to_depth_options};

}  // namespace microaot
