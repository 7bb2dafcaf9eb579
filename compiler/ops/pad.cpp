// PAD, PADV2 and MIRROR_PAD, as TFLite Micro's kernels (pad.cc, mirror_pad.cc): constant paddings, one
// [before, after] pair per dimension. PAD fills with 0 (int8: the output zero point), PADV2 with its constant
// value input (int8: quantized as the output), MIRROR_PAD reflects the input (REFLECT leaves the edge out,
// SYMMETRIC repeats it). All lower to the byte-generic remap kernel.
#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "ops/read_options.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr int kMaxPadRank = 5;  // TFLM's PadKernelMaxDimensionCount

// The [before, after] pairs, after checking they turn the input's shape into the output's.
std::vector<int64_t> paddings(const Graph& graph, const Op& op) {
  const int in = input_id(graph, op, 0);
  const int pads = input_id(graph, op, 1);
  const Tensor& input = graph.tensor(in);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const std::vector<int64_t> values = constant_ints(graph, op, pads, "paddings");
  expect_tensor(values.size() == 2 * output.shape.size() && input.shape.size() == output.shape.size(), graph, op,
                pads, "paddings", "must hold one [before, after] pair per dimension");
  for (size_t d = 0; d < output.shape.size(); ++d) {
    expect_tensor(values[2 * d] >= 0 && values[2 * d + 1] >= 0 &&
                      input.shape[d] + values[2 * d] + values[2 * d + 1] == output.shape[d],
                  graph, op, pads, "paddings", "do not turn the input's dimension " + std::to_string(d) +
                                                   " into the output's");
  }
  return values;
}

void check_common(const Graph& graph, const Op& op, int max_inputs, std::initializer_list<DType> types) {
  expect_arity(graph, op, 2, max_inputs, 1);
  expect_moved_tensors(graph, op, types);
  const int out = op.outputs[0];
  expect_tensor(graph.tensor(out).shape.size() <= kMaxPadRank, graph, op, out, "output 0", "rank above 5");
  paddings(graph, op);
}

void check_pad(const Graph& graph, const Op& op) {
  expect_version(graph, op, 4);
  check_common(graph, op, op.kind == OpKind::PadV2 ? 3 : 2,
               {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32});
  const Tensor& output = graph.tensor(op.outputs[0]);
  if (op.inputs.size() < 3) {
    if (output.dtype == DType::kInt8) expect_per_tensor_quant(graph, op, op.outputs[0], "output 0");
    return;
  }
  const int value = input_id(graph, op, 2);
  expect_same_type(graph, op, 2);
  expect_constant_data(graph, op, value, "constant value");
  expect_tensor(graph.tensor(value).num_elements() == 1, graph, op, value, "constant value", "is not one value");
  if (output.dtype == DType::kInt8) {
    const Tensor& v = graph.tensor(value);
    expect_tensor(v.quant.scale == output.quant.scale && v.quant.zero_point == output.quant.zero_point, graph, op,
                  value, "constant value", "must be quantized as the output (TFLM requires it)");
  }
}

// Per dimension: the input offsets of the kept coordinates, kFillOffset in the padding.
RemapTables padded_tables(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const std::vector<int64_t> pads = paddings(graph, op);
  const std::vector<int64_t> strides = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  RemapTables tables;
  for (size_t d = 0; d < input.shape.size(); ++d) {
    std::vector<int64_t> offsets(static_cast<size_t>(pads[2 * d]), kFillOffset);
    const std::vector<int64_t> kept = stepped_offsets(input.shape[d], 0, 1, strides[d]);
    offsets.insert(offsets.end(), kept.begin(), kept.end());
    offsets.resize(offsets.size() + static_cast<size_t>(pads[2 * d + 1]), kFillOffset);
    tables.add(offsets);
  }
  return tables;
}

KernelCall lower_pad(const Graph& graph, const Op& op) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  std::vector<uint8_t> fill;
  if (op.inputs.size() == 3) {
    fill = graph.tensor(op.inputs[2]).data;
  } else if (output.dtype == DType::kInt8) {
    fill = {static_cast<uint8_t>(output.quant.zero_point[0])};
  }
  return remap_call(graph, op, padded_tables(graph, op), fill);
}

// Without the table the format's default is REFLECT, but TFLM (zeroed parameters: mode unknown) pads
// SYMMETRIC; neither can be trusted to be what the converter meant.
OpOptions read_mirror_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  MirrorPadOptions options;
  const auto& table = required_options<tflite::MirrorPadOptions>(graph, op, source, "MirrorPadOptions");
  options.reflect = table.mode() == tflite::MirrorPadMode::REFLECT;
  return options;
}

void check_mirror_pad(const Graph& graph, const Op& op) {
  expect_version(graph, op, 2);
  check_common(graph, op, 2, {DType::kFloat32, DType::kInt8});
}

// The input coordinate of padded coordinate `p` (TFLM's mirror_pad.cc arithmetic, clamps included).
int64_t mirrored(int64_t p, int64_t before, int64_t size, int64_t edge) {
  if (p < before) {
    const int64_t first = before + edge - 1;
    return first - std::min(p, first - edge);
  }
  p -= before;
  if (p < size) return p;
  const int64_t last = size - 1 - edge;
  return last - std::min(p - size, last);
}

KernelCall lower_mirror_pad(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  const std::vector<int64_t> pads = paddings(graph, op);
  const std::vector<int64_t> strides = byte_strides(input.shape, static_cast<int64_t>(dtype_size(input.dtype)));
  const int64_t edge = options_if<MirrorPadOptions>(op)->reflect ? 1 : 0;
  RemapTables tables;
  for (size_t d = 0; d < input.shape.size(); ++d) {
    std::vector<int64_t> offsets;
    for (int64_t p = 0; p < output.shape[d]; ++p) {
      offsets.push_back(mirrored(p, pads[2 * d], input.shape[d], edge) * strides[d]);
    }
    tables.add(offsets);
  }
  return remap_call(graph, op, tables);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler pad_handler = {check_pad, lower_pad, macs, /*is_view=*/false, /*in_place=*/nullptr, nullptr};
extern const OpHandler padv2_handler = {check_pad, lower_pad, macs, /*is_view=*/false, /*in_place=*/nullptr, nullptr};
extern const OpHandler mirror_pad_handler = {check_mirror_pad, lower_mirror_pad, macs, /*is_view=*/false,
                                            /*in_place=*/nullptr, read_mirror_options};

}  // namespace microaot
