// SLICE and STRIDED_SLICE, as TFLite Micro's kernels (slice.cc, strided_slice_common.cc): constant begin /
// size (SLICE, rank up to 5) or begin / end / strides with begin, end and shrink-axis masks (STRIDED_SLICE,
// rank up to 4; TFLM ignores the ellipsis and new-axis masks and so does this). Both lower to the remap
// kernel: per input dimension, the coordinates start + k * stride.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "ops/byte_moves.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/read_options.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

struct AxisWalk {
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 0;
  bool kept = true;  // false for a shrunk axis: walked once, absent from the output's shape
};

OpOptions read_strided_options(const Graph&, const Op&, const tflite::Operator& source) {
  StridedSliceOptions options;
  if (const auto* table = source.builtin_options_as_StridedSliceOptions()) {
    options.begin_mask = table->begin_mask();
    options.end_mask = table->end_mask();
    options.shrink_axis_mask = table->shrink_axis_mask();
  }
  return options;
}

// SLICE: size -1 runs to the end of the dimension.
std::vector<AxisWalk> slice_walks(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int64_t> begin = constant_ints(graph, op, input_id(graph, op, 1), "begin");
  const std::vector<int64_t> size = constant_ints(graph, op, input_id(graph, op, 2), "size");
  const size_t rank = input.shape.size();
  expect_op(begin.size() == rank && size.size() == rank, graph, op, "begin and size need one entry per dimension");
  std::vector<AxisWalk> walks;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t count = size[d] == -1 ? input.shape[d] - begin[d] : size[d];
    expect_op(begin[d] >= 0 && count >= 0 && begin[d] + count <= input.shape[d], graph, op,
              "the slice leaves input dimension " + std::to_string(d));
    walks.push_back({begin[d], 1, count, true});
  }
  return walks;
}

// STRIDED_SLICE's first coordinate and end on one axis, as TensorFlow's strided-slice rules clamp them.
int64_t clamp_index(int64_t index, int64_t size, int64_t step) {
  if (index < 0) index += size;
  return step > 0 ? std::clamp<int64_t>(index, 0, size) : std::clamp<int64_t>(index, -1, size - 1);
}

AxisWalk strided_walk(int64_t size, int64_t begin, int64_t end, int64_t step, int d, const StridedSliceOptions& o) {
  constexpr int64_t kFar = std::numeric_limits<int32_t>::max();
  const bool shrink = (o.shrink_axis_mask >> d) & 1;
  if ((o.begin_mask >> d) & 1) begin = step > 0 ? -kFar : kFar;
  const int64_t start = size == 0 ? 0 : clamp_index(begin, size, step);
  if (shrink) return {start, 1, 1, false};
  if ((o.end_mask >> d) & 1) end = step > 0 ? kFar : -kFar;
  const int64_t stop = clamp_index(end, size, step);
  const int64_t span = step > 0 ? stop - start : start - stop;
  const int64_t stride = step > 0 ? step : -step;
  return {start, step, std::max<int64_t>(0, (span + stride - 1) / stride), true};
}

std::vector<AxisWalk> strided_walks(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int64_t> begin = constant_ints(graph, op, input_id(graph, op, 1), "begin");
  const std::vector<int64_t> end = constant_ints(graph, op, input_id(graph, op, 2), "end");
  const std::vector<int64_t> strides = constant_ints(graph, op, input_id(graph, op, 3), "strides");
  const size_t rank = input.shape.size();
  expect_op(begin.size() == rank && end.size() == rank && strides.size() == rank, graph, op,
            "begin, end and strides need one entry per input dimension");
  std::vector<AxisWalk> walks;
  for (size_t d = 0; d < rank; ++d) {
    expect_op(strides[d] != 0, graph, op, "stride " + std::to_string(d) + " is 0");
    walks.push_back(strided_walk(input.shape[d], begin[d], end[d], strides[d], static_cast<int>(d),
                                 *options_if<StridedSliceOptions>(op)));
  }
  return walks;
}

std::vector<AxisWalk> walks(const Graph& graph, const Op& op) {
  return op.kind == OpKind::Slice ? slice_walks(graph, op) : strided_walks(graph, op);
}

void check(const Graph& graph, const Op& op) {
  const bool strided = op.kind == OpKind::StridedSlice;
  expect_version(graph, op, strided ? 8 : 6);
  expect_arity(graph, op, strided ? 4 : 3, strided ? 4 : 3, 1);
  expect_moved_tensors(graph, op, {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32, DType::kBool});
  const int in = op.inputs[0];
  const int out = op.outputs[0];
  expect_tensor(graph.tensor(in).shape.size() <= (strided ? 4u : 5u), graph, op, in, "input 0",
                strided ? "rank above 4" : "rank above 5");
  std::vector<int32_t> shape;
  for (const AxisWalk& w : walks(graph, op)) {
    if (w.kept) shape.push_back(static_cast<int32_t>(w.count));
  }
  expect_tensor(shape == graph.tensor(out).shape, graph, op, out, "output 0", "its shape is not the slice's");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int64_t> strides = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  const std::vector<AxisWalk> axis_walks = walks(graph, op);
  RemapTables tables;
  for (size_t d = 0; d < axis_walks.size(); ++d) {
    tables.add(stepped_offsets(axis_walks[d].count, axis_walks[d].start, axis_walks[d].step, strides[d]));
  }
  return remap_call(graph, op, tables);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

std::optional<int64_t> slice_byte_offset(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int64_t> strides = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  const std::vector<AxisWalk> axis_walks = walks(graph, op);
  const auto whole = [&](size_t d) {
    return axis_walks[d].start == 0 && axis_walks[d].step == 1 && axis_walks[d].count == input.shape[d];
  };
  // Row-major, a contiguous run is: single coordinates, then one run with step 1, then whole dimensions.
  size_t d = axis_walks.size();
  while (d > 0 && whole(d - 1)) --d;
  if (d > 0 && axis_walks[d - 1].count > 1 && axis_walks[d - 1].step != 1) return std::nullopt;
  if (d > 0) --d;
  int64_t offset = 0;
  for (size_t i = 0; i < axis_walks.size(); ++i) {
    if (axis_walks[i].count == 0 || (i < d && axis_walks[i].count != 1)) return std::nullopt;
    offset += axis_walks[i].start * strides[i];
  }
  return offset;
}

extern const OpHandler slice_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, nullptr};
extern const OpHandler strided_slice_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                               read_strided_options};

}  // namespace microaot
