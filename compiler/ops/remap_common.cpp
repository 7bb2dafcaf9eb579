// Per-dimension offset tables and the checks the data-movement operators share.
#include "ops/remap_common.h"

#include <cstdint>

#include "ops/op_checks.h"

namespace microaot {
namespace {

constexpr size_t kMaxRank = 8;  // MICROAOT_REMAP_MAX_RANK
// The tables hold one entry per coordinate of each output dimension, in flash: a sum of dimensions above
// this is no microcontroller model, and a hostile shape must not make the compiler build gigabytes.
constexpr int64_t kMaxTableEntries = int64_t{1} << 20;

int64_t read_little_endian(const uint8_t* bytes, size_t size) {
  uint64_t u = 0;
  for (size_t i = 0; i < size; ++i) u |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  if (size < 8 && (u >> (8 * size - 1)) != 0) u |= ~uint64_t{0} << (8 * size);  // sign-extend
  return static_cast<int64_t>(u);
}

}  // namespace

void RemapTables::add(std::vector<int64_t> dim_offsets) {
  dims.push_back(static_cast<int32_t>(dim_offsets.size()));
  offsets.push_back(std::move(dim_offsets));
}

std::vector<int64_t> byte_strides(const std::vector<int32_t>& shape, int64_t element_bytes) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = element_bytes;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

std::vector<int64_t> stepped_offsets(int64_t count, int64_t start, int64_t step, int64_t stride) {
  std::vector<int64_t> offsets;
  for (int64_t k = 0; k < count; ++k) offsets.push_back((start + k * step) * stride);
  return offsets;
}

KernelCall remap_call(const Graph& graph, const Op& op, const RemapTables& tables, std::vector<uint8_t> fill) {
  const int64_t element_bytes = static_cast<int64_t>(dtype_size(graph.tensor(op.outputs[0]).dtype));
  expect_op(tables.dims.size() <= kMaxRank, graph, op, "more than 8 dimensions to walk");
  RemapTables walk = tables;
  if (walk.dims.empty()) walk.add({0});  // a scalar: one element
  fill.resize(static_cast<size_t>(element_bytes), 0);
  std::vector<int64_t> all_offsets, fill_values;
  for (const auto& dim : walk.offsets) all_offsets.insert(all_offsets.end(), dim.begin(), dim.end());
  for (uint8_t byte : fill) fill_values.push_back(static_cast<int8_t>(byte));
  KernelCall call;
  call.stem = kRemapStem;
  call.params.set_int("rank", static_cast<int64_t>(walk.dims.size()));
  call.params.set_int("element_bytes", element_bytes);
  call.params.set_ints("out_dims", std::vector<int64_t>(walk.dims.begin(), walk.dims.end()));
  call.params.set_ints("offsets", all_offsets);
  call.params.set_ints("fill", fill_values);
  call.args = {op.inputs[0], op.outputs[0]};
  return call;
}

int64_t dims_product(const std::vector<int32_t>& shape, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t d = from; d < to; ++d) n *= shape[d];
  return n;
}

void expect_dims_product_fits(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  const Tensor& t = graph.tensor(tensor_id);
  int64_t bytes = static_cast<int64_t>(dtype_size(t.dtype));
  for (int32_t dim : t.shape) {
    bytes *= dim > 0 ? dim : 1;
    expect_tensor(bytes <= INT32_MAX, graph, op, tensor_id, role, "its non-zero dimensions hold 2^31 bytes or more");
  }
}

std::vector<int64_t> constant_ints(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  expect_dtype(graph, op, tensor_id, role, {DType::kInt32, DType::kInt64});
  expect_constant_data(graph, op, tensor_id, role);
  const Tensor& t = graph.tensor(tensor_id);
  const size_t size = dtype_size(t.dtype);
  std::vector<int64_t> values;
  for (size_t i = 0; i + size <= t.data.size(); i += size) values.push_back(read_little_endian(&t.data[i], size));
  return values;
}

void expect_moved_tensors(const Graph& graph, const Op& op, std::initializer_list<DType> types) {
  const int out = output_id(graph, op, 0);
  expect_dtype(graph, op, out, "output 0", types);
  expect_same_type(graph, op, 0);
  expect_known_shape(graph, op, op.inputs[0], "input 0");
  expect_known_shape(graph, op, out, "output 0");
  expect_remap_table_size(graph, op, out);
}

void expect_remap_table_size(const Graph& graph, const Op& op, int out) {
  int64_t entries = 0;
  for (int32_t dim : graph.tensor(out).shape) entries += dim;
  expect_tensor(entries <= kMaxTableEntries, graph, op, out, "output 0",
                "has dimensions summing to " + std::to_string(entries) + "; the remap kernel's offset tables take " +
                    "at most " + std::to_string(kMaxTableEntries) + " entries");
}

void expect_same_type(const Graph& graph, const Op& op, int input_index) {
  const int in = input_id(graph, op, input_index);
  const int out = output_id(graph, op, 0);
  expect_tensor(graph.tensor(in).dtype == graph.tensor(out).dtype, graph, op, in, "input " + std::to_string(input_index),
                "has a type other than the output's");
}

}  // namespace microaot
