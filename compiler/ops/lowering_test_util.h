// For handler tests: lower one op as the compiler does (check, lower for generic C, bind to the kernel list)
// and read the bound params back as the C text the emitter writes, so tests state expected values once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codegen/c_text.h"
#include "compile/choose_variants.h"
#include "kernels/bind_call.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"

namespace microaot {

// Checks and lowers `op` of `graph` (a copy, since binding may add derived constants).
inline KernelCall lower_for_test(Graph graph, const Op& op) {
  const OpHandler& handler = op_handler(op.kind);
  handler.check(graph, op);
  KernelCall call = handler.lower(graph, op);
  bind_kernel_call(graph, op, call);
  return call;
}
inline KernelCall lower_for_test(const Graph& graph) { return lower_for_test(graph, graph.ops[0]); }

// The same for `target`, binding into `graph` itself: its derived constants stay readable there.
inline KernelCall lower_in_place_for_test(Graph& graph, const Target& target) {
  const Op op = graph.ops[0];
  const OpHandler& handler = op_handler(op.kind);
  handler.check(graph, op);
  std::vector<KernelCall> calls = {handler.lower(graph, op)};
  choose_variants(graph, {op}, target, calls);  // the specialisation, as compile_model picks it
  bind_kernel_call(graph, op, calls[0]);
  return calls[0];
}

// The scalar fields as C text: "192", "-128", "0x1p-8f", "FLT_MAX".
inline std::map<std::string, std::string> param_text(const KernelCall& call) {
  std::map<std::string, std::string> text;
  for (const ParamField& field : call.info().params->fields) {
    const ParamValue& v = *call.params.find(field.name);
    if (field.kind == ParamKind::kI32) text[field.name] = c_int_literal(v.integer);
    if (field.kind == ParamKind::kF32) text[field.name] = c_float_literal(v.real);
  }
  return text;
}

// The non-empty integer array fields.
inline std::map<std::string, std::vector<int64_t>> param_arrays(const KernelCall& call) {
  std::map<std::string, std::vector<int64_t>> arrays;
  for (const ParamValue& v : call.params.values()) {
    if (!v.integers.empty()) arrays[v.field] = v.integers;
  }
  return arrays;
}

}  // namespace microaot
