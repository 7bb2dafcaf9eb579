// What the compiler knows about one operator: how to check it and how to lower it to a runtime kernel
// call with every constant parameter computed at compile time. One handler per line of op_list.def.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace microaot {

// A constant array emitted to flash beside the weights (per-channel multipliers, shifts, ...).
struct ParamArray {
  std::string field;   // the params field that points at it, e.g. "output_multiplier"
  std::string c_type;  // element type, e.g. "int32_t"
  std::vector<int64_t> values;
};

// A runtime call: `function(&params, args...)`; params is a `const params_type` emitted to flash.
struct KernelCall {
  std::string function;     // e.g. "microaot_conv_2d_s8"
  std::string params_type;  // e.g. "microaot_conv_params_s8"; empty when the kernel takes no params
  // Designated initializer fields in emission order: {"stride_w", "2"}. Values are C expressions.
  std::vector<std::pair<std::string, std::string>> fields;
  std::vector<ParamArray> arrays;  // each becomes `.field = <array symbol>`
  std::vector<int> args;           // tensor ids passed after params, in the kernel's order
  std::string header;              // e.g. "microaot/kernels/conv.h"
  std::vector<std::string> sources;  // runtime files needed, e.g. "kernels/portable/conv_2d_s8.c"
  int64_t scratch_bytes = 0;         // per-call scratch the planner must provide
  bool is_alias = false;             // the op moves no data (output aliases input): no call emitted
  bool pass_scratch = false;         // the planned scratch buffer is the call's last argument
};

// One way an op may write an output over an input that dies at it (in-place reuse, see OverlapPermit in
// memory/buffer.h). Any plan with offset(output) - offset(input) <= max_shift is safe for `function`.
struct InPlaceOption {
  int input = 0;              // index into op.inputs
  int output = 0;             // index into op.outputs
  int64_t max_shift = 0;      // bytes; may be negative
  std::string function;       // kernel to call when the buffers overlap; empty = the normal call is safe
  int64_t scratch_bytes = 0;  // temporary `function` needs, passed as its last argument
};

struct OpHandler {
  // Checks dtypes, shapes, options and version; throws CompileError naming the op and tensor.
  void (*check)(const Graph& graph, const Op& op);
  // Computes the kernel call. Only called on ops that passed check().
  KernelCall (*lower)(const Graph& graph, const Op& op);
  // Multiply-accumulates of one inference (0 for data movement).
  int64_t (*macs)(const Graph& graph, const Op& op);
  // A view op (RESHAPE, SQUEEZE): the output is the input's bytes under another shape. The passes turn
  // it into an alias and drop it from the schedule.
  bool is_view = false;
  // The in-place options of this op, or nullptr when it has none.
  std::vector<InPlaceOption> (*in_place)(const Graph& graph, const Op& op) = nullptr;
};

const OpHandler& op_handler(OpKind kind);

}  // namespace microaot
