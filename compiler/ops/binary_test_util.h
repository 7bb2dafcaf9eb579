// For tests of the element-wise binary handlers (ADD, MUL, ...): one op reading tensors 0 ('a') and 1 ('b')
// and writing tensor 2 ('out'), each with its shape and optional per-tensor quantization.
#pragma once

#include <string>
#include <vector>

#include "ops/op_handler.h"
#include "ops/op_options.h"
#include "support/diagnostics.h"

namespace microaot {

struct TensorSpec {
  std::vector<int32_t> shape;
  float scale = 0;  // 0: unquantized
  int64_t zero_point = 0;
};

inline Graph binary_graph(OpKind kind, DType type, const TensorSpec& a, const TensorSpec& b, const TensorSpec& out,
                          Activation activation = Activation::kNone) {
  Graph g;
  const TensorSpec* specs[] = {&a, &b, &out};
  const char* names[] = {"a", "b", "out"};
  for (int i = 0; i < 3; ++i) {
    Tensor t;
    t.name = names[i];
    t.dtype = type;
    t.shape = specs[i]->shape;
    if (specs[i]->scale > 0) {
      t.quant.scale = {specs[i]->scale};
      t.quant.zero_point = {specs[i]->zero_point};
    }
    g.tensors.push_back(t);
  }
  g.ops.push_back(Op{kind, 2, 1, {0, 1}, {2}, FusedActivationOptions{activation}});
  return g;
}

// The CompileError text of check() on op 0, or "" when it passes.
inline std::string check_error(const Graph& g) {
  try {
    op_handler(g.ops[0].kind).check(g, g.ops[0]);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace microaot
