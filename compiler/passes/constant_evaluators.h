// Compile-time evaluators of operators whose inputs are all constant (fold_constants): op kind -> function
// producing output 0's bytes. Each computes from the params its handler lowers to, with the runtime kernel's
// arithmetic (tests compare every one with the kernel, bit for bit).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/graph.h"

namespace microaot {

// Output 0's bytes, or nullopt when this op (its types, its lowering) is one the evaluator does not take.
using ConstantEvaluator = std::optional<std::vector<uint8_t>> (*)(const Graph& graph, const Op& op);

struct ConstantFoldRule {
  OpKind kind;
  ConstantEvaluator evaluate;
  bool reads_input_values;  // false: only the inputs' shapes matter (SHAPE), so they need not be constant
};

// The rule for `kind`, or nullptr when ops of that kind are never folded.
const ConstantFoldRule* constant_fold_rule(OpKind kind);

}  // namespace microaot
