// What the compiler knows about one operator: how to check it and how to lower it to a runtime kernel
// call with every constant parameter computed at compile time. One handler per line of op_list.def.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"
#include "target/target.h"

namespace tflite {
struct Operator;
}

namespace microaot {

// One way an op may write an output over an input that dies at it (in-place reuse, see OverlapPermit in
// memory/buffer.h). Any plan with offset(output) - offset(input) <= max_shift is safe for `variant`.
struct InPlaceOption {
  int input = 0;              // index into op.inputs
  int output = 0;             // index into op.outputs
  int64_t max_shift = 0;      // bytes; may be negative
  KernelVariant variant = KernelVariant::kPlain;  // the kernel variant the overlap needs (plain: safe as is)
  int64_t scratch_bytes = 0;  // the scratch that variant needs past the call's own (KernelCall::scratch_bytes,
                              // first in the one buffer passed as its last argument)
};

struct OpHandler {
  // Checks dtypes, shapes, options and version; throws CompileError naming the op and tensor.
  void (*check)(const Graph& graph, const Op& op);
  // Computes the kernel call: the kernel stem for the op's types, every params field and the arguments.
  // Only called on ops that passed check(). The same on every target: the family's generic stem (what the
  // target runs instead is the chooser's choice, below).
  KernelCall (*lower)(const Graph& graph, const Op& op);
  // Multiply-accumulates of one inference (0 for data movement).
  int64_t (*macs)(const Graph& graph, const Op& op);
  // A view op (RESHAPE, SQUEEZE): the output is the input's bytes under another shape. The passes turn
  // it into an alias and drop it from the schedule.
  bool is_view = false;
  // The in-place options of this op, or nullptr when it has none.
  std::vector<InPlaceOption> (*in_place)(const Graph& graph, const Op& op) = nullptr;
  // The op's IR options from its .tflite builtin options table (ops/read_options.h), or nullptr for an
  // operator whose options the compiler does not need (NoOptions). Throws CompileError naming the op.
  OpOptions (*read_options)(const Graph& graph, const Op& op, const tflite::Operator& source) = nullptr;
  // Bytes of persistent state one run of the op writes, for the reports (state_copy_bytes_per_step), when
  // they are not simply its persistent outputs' bytes: SVDF's shift of the state it updates in place, a
  // ring push's unit; nullptr: those outputs' bytes.
  int64_t (*state_copy_bytes)(const Graph& graph, const Op& op) = nullptr;
  // The family's chooser (compile/choose_variants.h), or nullptr: given the call lower() made of the generic
  // stem, picks one of its specialisations (kernel_list.def) that the target runs, one branch per
  // specialisation, and says in call.specialisation which, or why not the faster one (on any target: "the
  // target has no DSP extension"). Called for every call of a stem the list specialises.
  void (*choose)(const Graph& graph, const Op& op, const Target& target, KernelCall& call) = nullptr;
};

const OpHandler& op_handler(OpKind kind);

}  // namespace microaot
