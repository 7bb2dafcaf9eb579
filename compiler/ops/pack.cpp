// PACK: N tensors of one shape stacked along a new axis of the output, as TFLite Micro's kernel (pack.cc):
// float32, int8, int16, int32 or int64, values copied as they are (no rescaling). It is a concatenation
// whose inputs lack the axis, so it lowers to the byte-generic concatenation kernel.
#include <string>

#include "ops/join_split.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/reduce_common.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr int kMaxVersion = 4;
constexpr int kMaxInputs = 1 << 16;  // beyond any real model; keeps the kernel's count within its field

struct PackOptions {
  int values_count = 0;
  int axis = 0;  // of the output; negative counts from the end
};

OpOptions read_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  const auto& table = required_options<tflite::PackOptions>(graph, op, source, "PackOptions");
  return PackOptions{table.values_count(), table.axis()};
}

size_t pack_axis(const Graph& graph, const Op& op) {
  const int rank = static_cast<int>(graph.tensor(op.outputs[0]).shape.size());
  return static_cast<size_t>(resolve_axis(graph, op, options_if<PackOptions>(op)->axis, rank));
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  expect_arity(graph, op, 1, kMaxInputs, 1);
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, out, "output 0", {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64});
  expect_known_shape(graph, op, out, "output 0");
  expect_dims_product_fits(graph, op, out, "output 0");
  const int values_count = options_if<PackOptions>(op)->values_count;
  expect_op(values_count == static_cast<int>(op.inputs.size()), graph, op,
            "values_count " + std::to_string(values_count) + " is not the number of inputs");
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const int id = input_id(graph, op, static_cast<int>(i));
    expect_same_type(graph, op, static_cast<int>(i));
    if (graph.tensor(id).is_constant) expect_constant_data(graph, op, id, "input " + std::to_string(i));
  }
  expect_stacked(graph, op, out, op.inputs, pack_axis(graph, op));
}

KernelCall lower(const Graph& graph, const Op& op) {
  return concatenation_call(graph, op, pack_axis(graph, op));
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler pack_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, read_options};

}  // namespace microaot
