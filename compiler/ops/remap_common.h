// Lowering shared by the data-movement operators the remap kernel serves (TRANSPOSE, SLICE, PAD, ...):
// each reduces to per-dimension tables giving the input byte offset of every output coordinate.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"

namespace microaot {

constexpr int64_t kFillOffset = -1;           // a table entry for a coordinate that takes the fill value
inline constexpr char kRemapStem[] = "remap";  // the kernel every remap_call calls

struct RemapTables {
  std::vector<int32_t> dims;                  // the output's dimensions as the kernel walks them
  std::vector<std::vector<int64_t>> offsets;  // per dimension, per coordinate: input byte offset or kFillOffset
  void add(std::vector<int64_t> dim_offsets);
};

// The product of shape[from..to), 1 when empty.
int64_t dims_product(const std::vector<int32_t>& shape, size_t from, size_t to);

// Refuses a tensor whose non-zero dimensions multiply (times the element size) to 2^31 bytes or more. A zero
// dimension makes the tensor empty, yet the kernels' counts are products of its other dimensions.
void expect_dims_product_fits(const Graph& graph, const Op& op, int tensor_id, const std::string& role);

// Row-major byte strides of `shape` for elements of `element_bytes`.
std::vector<int64_t> byte_strides(const std::vector<int32_t>& shape, int64_t element_bytes);

// count entries (start + k * step) * stride, k = 0..count-1.
std::vector<int64_t> stepped_offsets(int64_t count, int64_t start, int64_t step, int64_t stride);

// count entries offset_of(k), k = 0..count-1: for coordinates that split into several input coordinates.
template <typename F>
std::vector<int64_t> mapped_offsets(int64_t count, F offset_of) {
  std::vector<int64_t> offsets;
  for (int64_t k = 0; k < count; ++k) offsets.push_back(offset_of(k));
  return offsets;
}

// The call of the remap kernel from input 0 to output 0; `fill` is one element's bytes (zeros when empty).
KernelCall remap_call(const Graph& graph, const Op& op, const RemapTables& tables, std::vector<uint8_t> fill = {});

// The values of a constant int32 or int64 tensor; refuses any other tensor, naming op and role.
std::vector<int64_t> constant_ints(const Graph& graph, const Op& op, int tensor_id, const std::string& role);

// The checks every data-movement operator makes on input 0 and output 0: the output's type among `types`, the
// input's the same, both shapes known.
void expect_moved_tensors(const Graph& graph, const Op& op, std::initializer_list<DType> types);

// Refuses an output whose dimensions sum above the remap tables' limit (2^20 entries).
void expect_remap_table_size(const Graph& graph, const Op& op, int out);

// Refuses an input whose type is not the output's. Quantization is not compared: like TFLM, the data-movement
// operators copy the stored values without rescaling.
void expect_same_type(const Graph& graph, const Op& op, int input_index);

}  // namespace microaot
