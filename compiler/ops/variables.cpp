// READ_VARIABLE and ASSIGN_VARIABLE as TFLM's kernels (read_variable.cc, assign_variable.cc): a byte copy
// between a resource variable and an activation. The reader (frontend/tflite_variables.cpp) turns the
// resource handle into the variable's own tensor, persistent across runs: READ_VARIABLE reads it (input 0),
// ASSIGN_VARIABLE writes it (output 0, with the value as input 0). An ASSIGN_VARIABLE that
// passes/ring_windows.cpp made (RingPushOptions) pushes its input into a ring buffer instead.
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/op_options.h"

namespace microaot {
namespace {

// The variable and the activation hold the same bytes (TFLM checks the byte counts; the reader makes the
// variable's type the type of the values assigned to it).
void check_copy(const Graph& graph, const Op& op, int variable, int activation, const char* role) {
  expect_version(graph, op, 1);
  expect_arity(graph, op, 1, 1, 1);
  expect_tensor(graph.tensor(variable).is_persistent, graph, op, variable, "the variable",
                "is not a resource variable");
  expect_dtype(graph, op, activation, role, {graph.tensor(variable).dtype});
  expect_tensor(graph.tensor(activation).byte_size() == graph.tensor(variable).byte_size(), graph, op, activation,
                role, "has another size than the variable " + describe_tensor(graph, variable));
}

void check_read(const Graph& graph, const Op& op) { check_copy(graph, op, op.inputs[0], op.outputs[0], "output 0"); }
void check_assign(const Graph& graph, const Op& op) { check_copy(graph, op, op.outputs[0], op.inputs[0], "value"); }

KernelCall lower(const Graph& graph, const Op& op) {
  KernelCall call;
  if (const auto* ring = options_if<RingPushOptions>(op)) {
    call.stem = "ring_push";
    call.args = {op.inputs[0], op.outputs[0], op.outputs[1]};
    call.params.set_int("unit_bytes", ring->unit_bytes);
    call.params.set_int("slots", ring->slots);
    return call;
  }
  call.stem = "copy";
  call.args = {op.inputs[0], op.outputs[0]};
  call.params.set_int("size", graph.tensor(op.inputs[0]).byte_size());
  return call;
}

int64_t macs(const Graph&, const Op&) { return 0; }

// A step writes the whole variable; a ring push writes its unit twice (at most) and the position.
int64_t state_bytes_written(const Graph& graph, const Op& op) {
  if (const auto* ring = options_if<RingPushOptions>(op)) return 2 * ring->unit_bytes + 4;
  return graph.tensor(op.outputs[0]).byte_size();
}

}  // namespace

extern const OpHandler read_variable_handler = {check_read, lower, macs, /*is_view=*/false, nullptr, nullptr};
extern const OpHandler assign_variable_handler = {check_assign, lower,   macs, /*is_view=*/false,
                                                 nullptr,      nullptr, state_bytes_written};

}  // namespace microaot
