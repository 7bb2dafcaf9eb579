// CONCATENATION: the inputs side by side along one axis, as TFLite Micro's kernel (concatenation.cc):
// up to 10 inputs of one type (float32, int8, int16, int32, int64, bool), no fused activation, int8 inputs
// quantized exactly as the output (no rescaling), int16 zero points 0 and values copied as they are.
// The kernel is byte-generic: one copy routine for every element size.
#include <algorithm>
#include <string>
#include <vector>

#include "ops/byte_moves.h"
#include "ops/join_split.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "ops/read_options.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 4;
constexpr int kMaxInputs = 10;  // TFLM's limit
constexpr size_t kMaxRank = 6;

OpOptions read_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  ConcatenationOptions options;
  if (const auto* table = source.builtin_options_as_ConcatenationOptions()) {
    options.axis = table->axis();
    options.activation = read_activation(graph, op, table->fused_activation_function());
  }
  return options;
}

// The axis in 0..rank-1 (TFLite counts a negative axis from the end).
size_t positive_axis(const Graph& graph, const Op& op) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  const int rank = static_cast<int>(output.shape.size());
  const int axis = options_if<ConcatenationOptions>(op)->axis;
  expect_op(axis >= -rank && axis < rank, graph, op, "axis " + std::to_string(axis) + " is outside the output's rank");
  return static_cast<size_t>(axis < 0 ? axis + rank : axis);
}

float scale_or_zero(const Tensor& t) { return t.quant.empty() ? 0.0f : t.quant.scale[0]; }
int64_t zero_point_or_zero(const Tensor& t) { return t.quant.zero_point.empty() ? 0 : t.quant.zero_point[0]; }

void check_quantization(const Graph& graph, const Op& op, int id, const std::string& role) {
  const Tensor& input = graph.tensor(id);
  const Tensor& output = graph.tensor(op.outputs[0]);
  if (input.dtype == DType::kInt8) {
    expect_tensor(scale_or_zero(input) == scale_or_zero(output) && zero_point_or_zero(input) == zero_point_or_zero(output),
                  graph, op, id, role, "int8 inputs must be quantized as the output (TFLM does not rescale)");
  }
  if (input.dtype == DType::kInt16) {
    expect_tensor(zero_point_or_zero(input) == 0 && zero_point_or_zero(output) == 0, graph, op, id, role,
                  "int16 zero points must be 0");
  }
}

// Every input has the output's type and rank and its dimensions except along the axis, whose sizes add up.
void check_input(const Graph& graph, const Op& op, size_t i, size_t axis, int64_t* axis_sum) {
  const int id = input_id(graph, op, static_cast<int>(i));
  const std::string role = "input " + std::to_string(i);
  const Tensor& input = graph.tensor(id);
  const Tensor& output = graph.tensor(op.outputs[0]);
  expect_tensor(input.dtype == output.dtype, graph, op, id, role, "has a type other than the output's");
  expect_tensor(input.shape.size() == output.shape.size(), graph, op, id, role, "has a rank other than the output's");
  expect_known_shape(graph, op, id, role);
  expect_dims_product_fits(graph, op, id, role);
  for (size_t d = 0; d < output.shape.size(); ++d) {
    expect_tensor(d == axis || input.shape[d] == output.shape[d], graph, op, id, role,
                  "dimension " + std::to_string(d) + " differs from the output's");
  }
  if (input.is_constant) expect_constant_data(graph, op, id, role);
  check_quantization(graph, op, id, role);
  *axis_sum += input.shape[axis];
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 1, kMaxInputs, 1);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, out, "output 0",
               {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64, DType::kBool});
  expect_tensor(graph.tensor(out).shape.size() <= kMaxRank, graph, op, out, "output 0", "rank above 6");
  expect_known_shape(graph, op, out, "output 0");
  expect_dims_product_fits(graph, op, out, "output 0");
  expect_op(options_if<ConcatenationOptions>(op)->activation == Activation::kNone, graph, op,
            "a fused activation is not supported (TFLM refuses it too)");
  const size_t axis = positive_axis(graph, op);
  int64_t axis_sum = 0;
  for (size_t i = 0; i < op.inputs.size(); ++i) check_input(graph, op, i, axis, &axis_sum);
  expect_tensor(axis_sum == graph.tensor(out).shape[axis], graph, op, out, "output 0",
                "its axis size is not the sum of the inputs'");
}

KernelCall lower(const Graph& graph, const Op& op) {
  return concatenation_call(graph, op, positive_axis(graph, op));
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

bool concatenation_joins_bytes(const Graph& graph, const Op& op) {
  const std::vector<int32_t>& shape = graph.tensor(op.outputs[0]).shape;
  const size_t axis = positive_axis(graph, op);
  return std::all_of(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(axis), [](int32_t d) { return d == 1; });
}

extern const OpHandler concatenation_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                               read_options};

}  // namespace microaot
