// For tests of the element-wise unary handlers (ABS, RELU, LOGISTIC, CAST, ...): one op reading tensor 0 ('x')
// and writing tensor 1 ('y'), each with its type, shape and optional per-tensor quantization.
#pragma once

#include <string>

#include "ops/binary_test_util.h"
#include "ops/lowering_test_util.h"

namespace microaot {

inline Tensor spec_tensor(const char* name, DType type, const TensorSpec& spec) {
  Tensor t;
  t.name = name;
  t.dtype = type;
  t.shape = spec.shape;
  if (spec.scale > 0) {
    t.quant.scale = {spec.scale};
    t.quant.zero_point = {spec.zero_point};
  }
  return t;
}

inline Graph unary_graph(OpKind kind, DType in_type, const TensorSpec& in, DType out_type, const TensorSpec& out,
                         OpOptions options = {}) {
  Graph g;
  g.tensors = {spec_tensor("x", in_type, in), spec_tensor("y", out_type, out)};
  g.ops.push_back(Op{kind, 3, 1, {0}, {1}, std::move(options)});
  g.inputs = {0};
  g.outputs = {1};
  return g;
}
inline Graph unary_graph(OpKind kind, DType type, const TensorSpec& in, const TensorSpec& out) {
  return unary_graph(kind, type, in, type, out);
}

// Whether check() refuses op 0 with a message containing `part`.
inline ::testing::AssertionResult refuses(const Graph& g, const std::string& part) {
  const std::string error = check_error(g);
  if (!error.empty() && error.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "error \"" << error << "\" does not contain \"" << part << "\"";
}

}  // namespace microaot
