// For the handler tests of the data-movement operators: tensors and constant index tensors in a graph,
// and the remap tables of a lowered call split back per dimension.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/lowering_test_util.h"
#include "ops/remap_common.h"

namespace microaot {

// Appends a tensor and returns its id; int8 tensors get scale 0.5, zero point -3.
inline int add_tensor(Graph& g, DType type, std::vector<int32_t> shape) {
  Tensor t;
  t.name = "t" + std::to_string(g.tensors.size());
  t.dtype = type;
  t.shape = std::move(shape);
  if (type == DType::kInt8) t.quant = {{0.5f}, {-3}, 0};
  g.tensors.push_back(t);
  return static_cast<int>(g.tensors.size()) - 1;
}

// Appends a constant int32 tensor of `shape` holding `values`.
inline int add_int32_constant(Graph& g, const std::vector<int32_t>& values, std::vector<int32_t> shape) {
  const int id = add_tensor(g, DType::kInt32, std::move(shape));
  Tensor& t = g.tensors[static_cast<size_t>(id)];
  t.is_constant = true;
  for (int32_t v : values) {
    for (int b = 0; b < 4; ++b) t.data.push_back(static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * b)));
  }
  return id;
}

inline int add_int32_vector(Graph& g, const std::vector<int32_t>& values) {
  return add_int32_constant(g, values, {static_cast<int32_t>(values.size())});
}

// Tensors 'x' (type, in_shape), 'idx' (int32, constant when `values` is given) and 'out' (type), as the
// gathers take them.
inline Graph indexed_graph(DType type, const std::vector<int32_t>& in_shape, const std::vector<int32_t>& idx_shape,
                           const std::vector<int32_t>& out_shape, const std::vector<int32_t>& values) {
  Graph g;
  add_tensor(g, type, in_shape);
  if (values.empty()) add_tensor(g, DType::kInt32, idx_shape);
  if (!values.empty()) add_int32_constant(g, values, idx_shape);
  add_tensor(g, type, out_shape);
  g.tensors[0].name = "x";
  g.tensors[1].name = "idx";
  g.tensors[2].name = "out";
  return g;
}

// The `offsets` field of a remap call cut into one table per output dimension.
inline std::vector<std::vector<int64_t>> remap_tables(const KernelCall& call) {
  const auto arrays = param_arrays(call);
  std::vector<std::vector<int64_t>> tables;
  size_t next = 0;
  for (int64_t size : arrays.at("out_dims")) {
    const auto& all = arrays.at("offsets");
    tables.emplace_back(all.begin() + static_cast<long>(next), all.begin() + static_cast<long>(next + size));
    next += static_cast<size_t>(size);
  }
  return tables;
}

// Per output element in row-major order, the index of the input element the call copies (the tables' byte
// offsets summed and divided by the element size), or -1 where the element is fill: the kernel's contract
// worked out independently of it.
inline std::vector<int64_t> remap_sources(const KernelCall& call) {
  const int64_t element_bytes = std::stoll(param_text(call).at("element_bytes"));
  std::vector<int64_t> sources = {0};
  for (const auto& table : remap_tables(call)) {
    std::vector<int64_t> next;
    for (int64_t outer : sources) {
      for (int64_t entry : table) next.push_back(outer < 0 || entry < 0 ? -1 : outer + entry);
    }
    sources = next;
  }
  for (int64_t& s : sources) s = s < 0 ? -1 : s / element_bytes;
  return sources;
}

}  // namespace microaot
