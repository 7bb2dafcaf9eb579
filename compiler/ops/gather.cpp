// GATHER and EMBEDDING_LOOKUP, as TFLite Micro's kernels (gather.cc, embedding_lookup.cc): blocks of a float32
// or int8 tensor picked along one axis by int32 indices, values copied as they are. GATHER takes any axis and
// batch_dims; EMBEDDING_LOOKUP picks rows of a table of rank 2 or more with a rank-1 list of ids. Both lower
// to the byte-generic gather kernel, which checks indices that arrive at run time and refuses one outside
// the axis (MICROAOT_STATUS_VALUE_OUT_OF_RANGE); constant indices are checked here.
#include <string>
#include <vector>

#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/reduce_common.h"
#include "ops/remap_common.h"

namespace microaot {
namespace {

constexpr int kMaxGatherVersion = 7;

// The input as [batch, outer, axis, inner] and the indices as [batch, coord].
struct GatherLayout {
  size_t axis = 0, batch_dims = 0;
  int64_t batch = 1, outer = 1, axis_size = 1, coords = 1, inner = 1;
};

OpOptions read_options(const Graph& graph, const Op& op, const tflite::Operator& source) {
  const auto& table = required_options<tflite::GatherOptions>(graph, op, source, "GatherOptions");
  return GatherOptions{table.axis(), table.batch_dims()};
}

// The resolved axis and batch_dims, refused where TFLM's Prepare refuses them.
GatherLayout gather_layout(const Graph& graph, const Op& op) {
  const std::vector<int32_t>& input = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t>& indices = graph.tensor(op.inputs[1]).shape;
  const GatherOptions& options = *options_if<GatherOptions>(op);
  GatherLayout l;
  l.axis = static_cast<size_t>(resolve_axis(graph, op, options.axis, static_cast<int>(input.size())));
  const int batch_dims = options.batch_dims < 0 ? options.batch_dims + static_cast<int>(indices.size()) : options.batch_dims;
  expect_op(batch_dims >= 0 && static_cast<size_t>(batch_dims) <= l.axis && static_cast<size_t>(batch_dims) <= indices.size(),
            graph, op, "batch_dims " + std::to_string(options.batch_dims) +
                           " must resolve to 0..min(axis, rank of the indices)");
  l.batch_dims = static_cast<size_t>(batch_dims);
  for (size_t d = 0; d < l.batch_dims; ++d) {
    expect_op(input[d] == indices[d], graph, op,
              "batch dimension " + std::to_string(d) + " of the input and of the indices differ");
  }
  l.batch = dims_product(input, 0, l.batch_dims);
  l.outer = dims_product(input, l.batch_dims, l.axis);
  l.axis_size = input[l.axis];
  l.coords = dims_product(indices, l.batch_dims, indices.size());
  l.inner = dims_product(input, l.axis + 1, input.size());
  return l;
}

// Constant indices are checked now, so that only indices computed at run time can make the kernel refuse.
void expect_constant_indices_within(const Graph& graph, const Op& op, int id, const std::string& role, int64_t size) {
  if (!graph.tensor(id).is_constant) return;
  const std::vector<int64_t> values = constant_ints(graph, op, id, role);
  for (size_t i = 0; i < values.size(); ++i) {
    expect_tensor(values[i] >= 0 && values[i] < size, graph, op, id, role,
                  "index " + std::to_string(values[i]) + " (entry " + std::to_string(i) + ") is outside [0, " +
                      std::to_string(size) + ")");
  }
}

// The checks both operators share: the values' type and the indices' type, known shapes.
void check_operands(const Graph& graph, const Op& op, int values_index, int indices_index) {
  expect_arity(graph, op, 2, 2, 1);
  const int values = input_id(graph, op, values_index), indices = input_id(graph, op, indices_index);
  const int out = output_id(graph, op, 0);
  const std::string values_role = "input " + std::to_string(values_index);
  const std::string indices_role = "input " + std::to_string(indices_index);
  expect_dtype(graph, op, values, values_role, {DType::kFloat32, DType::kInt8});
  expect_dtype(graph, op, indices, indices_role, {DType::kInt32});
  expect_tensor(graph.tensor(out).dtype == graph.tensor(values).dtype, graph, op, out, "output 0",
                "has a type other than " + values_role + "'s");
  for (int id : {values, indices, out}) {
    const std::string role = id == out ? "output 0" : input_role(op, id);
    expect_known_shape(graph, op, id, role);
    expect_dims_product_fits(graph, op, id, role);
  }
}

void check_gather(const Graph& graph, const Op& op) {
  expect_version(graph, op, kMaxGatherVersion);
  check_operands(graph, op, 0, 1);
  const GatherLayout l = gather_layout(graph, op);
  const std::vector<int32_t>& input = graph.tensor(op.inputs[0]).shape;
  const std::vector<int32_t>& indices = graph.tensor(op.inputs[1]).shape;
  std::vector<int32_t> shape(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(l.axis));
  shape.insert(shape.end(), indices.begin() + static_cast<std::ptrdiff_t>(l.batch_dims), indices.end());
  shape.insert(shape.end(), input.begin() + static_cast<std::ptrdiff_t>(l.axis) + 1, input.end());
  expect_tensor(graph.tensor(op.outputs[0]).shape == shape, graph, op, op.outputs[0], "output 0",
                "its shape is not input[:axis] + indices[batch_dims:] + input[axis+1:]");
  expect_constant_indices_within(graph, op, op.inputs[1], "input 1", l.axis_size);
}

// EMBEDDING_LOOKUP(ids, table): a GATHER of rows.
GatherLayout lookup_layout(const Graph& graph, const Op& op) {
  const std::vector<int32_t>& table = graph.tensor(op.inputs[1]).shape;
  GatherLayout l;
  l.axis_size = table[0];
  l.coords = dims_product(graph.tensor(op.inputs[0]).shape, 0, 1);
  l.inner = dims_product(table, 1, table.size());
  return l;
}

void check_embedding_lookup(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 2, 1);
  const DType table_type = graph.tensor(input_id(graph, op, 1)).dtype;
  const DType out_type = graph.tensor(output_id(graph, op, 0)).dtype;
  expect_op(table_type != DType::kInt8 || out_type != DType::kFloat32,
            graph, op, "an int8 table with a float32 output (the hybrid, dequantizing lookup) is not supported");
  check_operands(graph, op, 1, 0);
  const int ids = op.inputs[0], table = op.inputs[1];
  expect_rank(graph, op, ids, "input 0", 1);
  expect_tensor(graph.tensor(table).shape.size() >= 2, graph, op, table, "input 1", "must have rank 2 or more");
  std::vector<int32_t> shape = graph.tensor(table).shape;
  shape[0] = graph.tensor(ids).shape[0];
  expect_tensor(graph.tensor(op.outputs[0]).shape == shape, graph, op, op.outputs[0], "output 0",
                "its shape is not [ids] + the table's rows");
  expect_constant_indices_within(graph, op, ids, "input 0", graph.tensor(table).shape[0]);
}

KernelCall gather_call(const Graph& graph, const Op& op, const GatherLayout& l, int values, int indices) {
  KernelCall call;
  call.stem = "gather";
  call.args = {values, indices, op.outputs[0]};
  call.params.set_int("batch_count", l.batch);
  call.params.set_int("outer_count", l.outer);
  call.params.set_int("axis_size", l.axis_size);
  call.params.set_int("coord_count", l.coords);
  call.params.set_int("inner_bytes", l.inner * static_cast<int64_t>(dtype_size(graph.tensor(values).dtype)));
  return call;
}

KernelCall lower_gather(const Graph& graph, const Op& op) {
  return gather_call(graph, op, gather_layout(graph, op), op.inputs[0], op.inputs[1]);
}

KernelCall lower_embedding_lookup(const Graph& graph, const Op& op) {
  return gather_call(graph, op, lookup_layout(graph, op), op.inputs[1], op.inputs[0]);
}

int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler gather_handler = {check_gather, lower_gather, macs, /*is_view=*/false, /*in_place=*/nullptr,
                                         read_options};
extern const OpHandler embedding_lookup_handler = {check_embedding_lookup, lower_embedding_lookup, macs};

}  // namespace microaot
