// CUSTOM (and any builtin the user replaces): a call of the user's C function bound with --custom-op.
// There is no kernel_list.def line; the call is emitted from the op's tensors (codegen/emit_custom_call.cpp).
#include <any>
#include <climits>
#include <string>

#include "ir/custom_op.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"

namespace microaot {
namespace {

// Every value the generated tables hold must fit their C types (int32 zero points and dims).
void check_tensor(const Graph& graph, const Op& op, int id, const std::string& role) {
  const Tensor& t = graph.tensor(id);
  expect_tensor(t.dtype != DType::kUnsupported, graph, op, id, role, "has a type microaot does not read");
  expect_known_shape(graph, op, id, role);
  for (int64_t zero_point : t.quant.zero_point) {
    expect_tensor(zero_point >= INT32_MIN && zero_point <= INT32_MAX, graph, op, id, role,
                  "has a zero point outside int32");
  }
  expect_tensor(t.quant.zero_point.size() == t.quant.scale.size(), graph, op, id, role,
                "has a different number of scales and zero points");
}

void check(const Graph& graph, const Op& op) {
  const auto* custom = std::any_cast<CustomOpOptions>(&op.options);
  expect_op(custom != nullptr, graph, op, "has no --custom-op binding");
  expect_op(!op.outputs.empty(), graph, op, "has no outputs");
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    if (op.inputs[i] != kNoTensor) check_tensor(graph, op, op.inputs[i], "input " + std::to_string(i));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const std::string role = "output " + std::to_string(i);
    check_tensor(graph, op, op.outputs[i], role);
    expect_tensor(!graph.tensor(op.outputs[i]).is_constant, graph, op, op.outputs[i], role, "is a constant");
  }
  expect_op(custom->binding.scratch_bytes >= 0 && custom->binding.scratch_bytes <= kMaxCustomScratchBytes, graph, op,
            "asks for " + std::to_string(custom->binding.scratch_bytes) + " bytes of scratch");
}

// The call's arguments are the op's inputs then its outputs; the planner gives it the scratch it asked for.
// No in-place option: an output never shares bytes with an input.
KernelCall lower(const Graph&, const Op& op) {
  const CustomOpOptions& custom = std::any_cast<const CustomOpOptions&>(op.options);
  KernelCall call;
  call.custom = true;
  call.stem = custom.binding.function;
  call.args = op.inputs;
  call.args.insert(call.args.end(), op.outputs.begin(), op.outputs.end());
  call.scratch_bytes = custom.binding.scratch_bytes;
  return call;
}

int64_t macs(const Graph&, const Op&) { return 0; }  // unknown: the user's code

}  // namespace

extern const OpHandler custom_handler = {check, lower, macs};

}  // namespace microaot
