// BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND, as TFLite Micro's kernels (batch_to_space_nd.cc,
// space_to_batch_nd.cc): float32 / int8 of rank 4 (NHWC, block [bh, bw]) or 3 (NHC, block [bh], walked as NH1C),
// constant int32 block shape and crops / paddings. The output batch index is (block row * bw + block column)
// * batches + batch. Both lower to the remap kernel. SPACE_TO_BATCH_ND pads with 0 (int8: the zero point, as
// TFLite does; TFLM leaves its pad value unset, which is 0 in a zeroed arena and agrees for zero point 0).
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

// A padded SPACE_TO_BATCH_ND needs one table entry per output position; more would not fit a device's flash.
constexpr int64_t kMaxPositions = int64_t{1} << 18;

// Both tensors as 4-d NHWC, the block and the crops (or paddings) before and after each spatial axis.
struct BlockGeometry {
  std::vector<int64_t> in, out;
  int64_t block_h = 1, block_w = 1;
  int64_t before_h = 0, after_h = 0, before_w = 0, after_w = 0;
};

std::vector<int64_t> as_nhwc(const std::vector<int32_t>& shape) {
  if (shape.size() == 4) return {shape[0], shape[1], shape[2], shape[3]};
  return {shape[0], shape[1], 1, shape[2]};
}

// A constant int32 input of `count` values, each at least `least`; `layout` says what the count is.
std::vector<int64_t> block_values(const Graph& graph, const Op& op, int index, const std::string& role, size_t count,
                                  int64_t least, const std::string& layout) {
  const int id = input_id(graph, op, index);
  expect_dtype(graph, op, id, role, {DType::kInt32});
  const std::vector<int64_t> values = constant_ints(graph, op, id, role);
  expect_tensor(values.size() == count, graph, op, id, role, "must hold " + layout);
  for (int64_t v : values) {
    expect_tensor(v >= least, graph, op, id, role, "holds a value below " + std::to_string(least));
  }
  return values;
}

BlockGeometry read_geometry(const Graph& graph, const Op& op) {
  const size_t spatial = graph.tensor(op.inputs[0]).shape.size() - 2;
  const std::string edges = op.kind == OpKind::BatchToSpaceNd ? "crops" : "paddings";
  const std::vector<int64_t> block =
      block_values(graph, op, 1, "block_shape", spatial, 1, "one value per spatial dimension");
  const std::vector<int64_t> pads =
      block_values(graph, op, 2, edges, 2 * spatial, 0, "a [before, after] pair per spatial dimension");
  BlockGeometry g;
  g.in = as_nhwc(graph.tensor(op.inputs[0]).shape);
  g.out = as_nhwc(graph.tensor(op.outputs[0]).shape);
  g.block_h = block[0];
  g.before_h = pads[0];
  g.after_h = pads[1];
  if (spatial == 2) {
    g.block_w = block[1];
    g.before_w = pads[2];
    g.after_w = pads[3];
  }
  return g;
}

// Whether the output's shape is the one the block and crops / paddings make of the input's (64-bit arithmetic:
// every factor is below 2^31 and no product of two overflows).
bool output_matches(const BlockGeometry& g, bool to_space) {
  const int64_t blocks = g.block_h * g.block_w;
  if (g.out[3] != g.in[3]) return false;
  if (to_space) {
    return g.in[0] % blocks == 0 && g.out[0] == g.in[0] / blocks &&
           g.out[1] == g.in[1] * g.block_h - g.before_h - g.after_h &&
           g.out[2] == g.in[2] * g.block_w - g.before_w - g.after_w;
  }
  const int64_t padded_h = g.in[1] + g.before_h + g.after_h;
  const int64_t padded_w = g.in[2] + g.before_w + g.after_w;
  return g.out[0] % blocks == 0 && g.out[0] / blocks == g.in[0] && g.out[1] * g.block_h == padded_h &&
         g.out[2] * g.block_w == padded_w;
}

bool padded(const BlockGeometry& g) { return g.before_h + g.after_h + g.before_w + g.after_w > 0; }

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, 4);
  expect_arity(graph, op, 3, 3, 1);
  expect_moved_tensors(graph, op, {DType::kFloat32, DType::kInt8});
  const size_t rank = graph.tensor(op.inputs[0]).shape.size();
  expect_tensor(rank == 3 || rank == 4, graph, op, op.inputs[0], "input 0", "rank is not 3 or 4");
  expect_tensor(graph.tensor(op.outputs[0]).shape.size() == rank, graph, op, op.outputs[0], "output 0",
                "rank is not the input's");
  const BlockGeometry g = read_geometry(graph, op);
  const bool to_space = op.kind == OpKind::BatchToSpaceNd;
  expect_tensor(output_matches(g, to_space), graph, op, op.outputs[0], "output 0",
                to_space ? "its shape is not the input's rearranged by block_shape and crops"
                         : "its shape is not the input's padded and rearranged by block_shape");
  if (to_space || !padded(g)) return;
  expect_tensor(g.out[0] * g.out[1] <= kMaxPositions && g.out[0] * g.out[1] * g.out[2] <= kMaxPositions, graph, op,
                op.outputs[0], "output 0", "has too many positions for a padded block layout");
  if (graph.tensor(op.outputs[0]).dtype == DType::kInt8) {
    expect_activation_quant(graph, op, op.outputs[0], "output 0");
  }
}

// Output (n, h, w, c) reads input batch (block row * bw + block column) * out batches + n, row
// (h + crop top) / bh, column (w + crop left) / bw, where block row / column = (h + top) % bh, (w + left) % bw.
RemapTables batch_to_space_tables(const BlockGeometry& g, const std::vector<int64_t>& stride) {
  const int64_t batch_step = g.out[0] * stride[0];
  RemapTables tables;
  tables.add(stepped_offsets(g.out[0], 0, 1, stride[0]));
  tables.add(mapped_offsets(g.out[1], [&](int64_t h) {
    const int64_t y = h + g.before_h;
    return y / g.block_h * stride[1] + y % g.block_h * g.block_w * batch_step;
  }));
  tables.add(mapped_offsets(g.out[2], [&](int64_t w) {
    const int64_t x = w + g.before_w;
    return x / g.block_w * stride[2] + x % g.block_w * batch_step;
  }));
  tables.add(stepped_offsets(g.out[3], 0, 1, stride[3]));
  return tables;
}

// Output batch n is input batch n % batches at block offset (n / batches) / bw rows, % bw columns.
int64_t block_origin(const BlockGeometry& g, const std::vector<int64_t>& stride, int64_t n) {
  const int64_t shift = n / g.in[0];
  return n % g.in[0] * stride[0] + shift / g.block_w * stride[1] + shift % g.block_w * stride[2];
}

// Without padding every output coordinate adds its own input offset.
RemapTables space_to_batch_tables(const BlockGeometry& g, const std::vector<int64_t>& stride) {
  RemapTables tables;
  tables.add(mapped_offsets(g.out[0], [&](int64_t n) { return block_origin(g, stride, n); }));
  tables.add(stepped_offsets(g.out[1], 0, g.block_h, stride[1]));
  tables.add(stepped_offsets(g.out[2], 0, g.block_w, stride[2]));
  tables.add(stepped_offsets(g.out[3], 0, 1, stride[3]));
  return tables;
}

// With padding whether a position is padding depends on the batch and the row / column together: one entry
// per (batch, row, column), then the channels.
RemapTables padded_space_to_batch_tables(const BlockGeometry& g, const std::vector<int64_t>& stride) {
  std::vector<int64_t> positions;
  for (int64_t n = 0; n < g.out[0]; ++n) {
    const int64_t shift = n / g.in[0];
    for (int64_t h = 0; h < g.out[1]; ++h) {
      const int64_t y = h * g.block_h + shift / g.block_w - g.before_h;
      for (int64_t w = 0; w < g.out[2]; ++w) {
        const int64_t x = w * g.block_w + shift % g.block_w - g.before_w;
        const bool inside = y >= 0 && y < g.in[1] && x >= 0 && x < g.in[2];
        positions.push_back(inside ? n % g.in[0] * stride[0] + y * stride[1] + x * stride[2] : kFillOffset);
      }
    }
  }
  RemapTables tables;
  tables.add(positions);
  tables.add(stepped_offsets(g.out[3], 0, 1, stride[3]));
  return tables;
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const BlockGeometry g = read_geometry(graph, op);
  std::vector<int32_t> nhwc(g.in.begin(), g.in.end());
  const std::vector<int64_t> stride = byte_strides(nhwc, static_cast<int64_t>(dtype_size(input.dtype)));
  if (op.kind == OpKind::BatchToSpaceNd) return remap_call(graph, op, batch_to_space_tables(g, stride));
  if (!padded(g)) return remap_call(graph, op, space_to_batch_tables(g, stride));
  std::vector<uint8_t> fill;
  if (output.dtype == DType::kInt8) fill = {static_cast<uint8_t>(output.quant.zero_point[0])};
  return remap_call(graph, op, padded_space_to_batch_tables(g, stride), fill);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler batch_to_space_nd_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                                    nullptr};
extern const OpHandler space_to_batch_nd_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                                    nullptr};

}  // namespace microaot
