// Small edits of one tensor that the quantization rules share (quantize_graph.cpp, recurrent_quant.cpp).
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "quantize/quant_params.h"

namespace microaot {

// `t` becomes of `type` with per-channel (or one) scales along `axis`, zero points 0.
void set_params(Tensor& t, DType type, const std::vector<float>& scales, int axis);
// `t` becomes of `type` with one scale and zero point.
void set_params(Tensor& t, AffineParams p, DType type);
// The values of input `index` of `op`, which must be a float32 constant (weights, bias; `role` names it).
std::vector<float> float_constant(const Graph& g, const Op& op, size_t index, const char* role);

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

}  // namespace microaot
