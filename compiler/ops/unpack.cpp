// UNPACK: one tensor cut along an axis into `num` tensors without that axis, as TFLite Micro's kernel
// (unpack.cc): float32, int8, int16 or int32, values copied as they are. The mirror of PACK: it lowers to the
// byte-generic split kernel with one position of the axis per output.
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

struct UnpackOptions {
  int num = 0;
  int axis = 0;  // of the input; negative counts from the end
};

OpOptions read_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  const auto& table = required_options<tflite::UnpackOptions>(graph, op, source, "UnpackOptions");
  return UnpackOptions{table.num(), table.axis()};
}

size_t unpack_axis(const Graph& graph, const Op& op) {
  const int rank = static_cast<int>(graph.tensor(op.inputs[0]).shape.size());
  return static_cast<size_t>(resolve_axis(graph, op, options_if<UnpackOptions>(op)->axis, rank));
}

void check(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxVersion);
  const int num = options_if<UnpackOptions>(op)->num;
  expect_op(num >= 1 && num == static_cast<int>(op.outputs.size()), graph, op,
            "num " + std::to_string(num) + " is not the number of outputs (" + std::to_string(op.outputs.size()) + ")");
  expect_arity(graph, op, 1, 1, num);
  const int in = input_id(graph, op, 0);
  expect_dtype(graph, op, in, "input 0", {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32});
  expect_known_shape(graph, op, in, "input 0");
  expect_dims_product_fits(graph, op, in, "input 0");
  expect_outputs_typed_as_input(graph, op, 0);
  expect_stacked(graph, op, in, op.outputs, unpack_axis(graph, op));
}

KernelCall lower(const Graph& graph, const Op& op) {
  return split_call(graph, op, 0, unpack_axis(graph, op));
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler unpack_handler = {check, lower, macs, /*is_view=*/false, /*in_place=*/nullptr, read_options};

}  // namespace microaot
