#include "compile/choose_variants.h"

#include <string>

#include "kernels/isa_fallbacks.h"
#include "kernels/kernel_registry.h"
#include "kernels/select_kernels.h"
#include "kernels/share_kernels.h"
#include "ops/op_handler.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
bool is_specialised(const std::string& stem) {
  for (const KernelSpecialisation& line : kernel_registry().specialisations) {
    if (line.parent == stem) return true;
  }
  return false;
}

int isa_rank(const std::string& isa) { return isa == "mve" ? 2 : isa == "dsp" ? 1 : 0; }

// The implementation of the generic stem the target runs, when its instruction set is wider than that of every
// specialisation of the stem the target runs (a Helium kernel beside the DSP ones); else "". Such a layer keeps
// the generic stem, whose chooser is not asked.
std::string wider_implementation(const std::string& stem, const Target& target) {
  const KernelRegistry& registry = kernel_registry();
  const KernelInfo* kernel = registry.find(stem, KernelVariant::kPlain);
  if (kernel == nullptr) return "";
  const std::string source = select_implementation(registry, *kernel, target);
  const std::string isa = source == kernel->source ? "portable" : implementation_isa(source);
  for (const KernelSpecialisation& line : registry.specialisations) {
    if (line.parent == stem && target_runs_isa(target, line.isa) && isa_rank(line.isa) >= isa_rank(isa)) return "";
  }
  return isa == "portable" ? "" : isa;
}

// A chooser may only pick its own family's stems, for an instruction set the target runs.
void check_choice(const std::string& generic, const KernelCall& call, const Target& target) {
  if (call.stem == generic) return;
  const KernelRegistry& registry = kernel_registry();
  const KernelSpecialisation* line = registry.specialisation_of(call.stem);
  MICROAOT_CHECK(line != nullptr && registry.specialises(call.stem, generic) && target_runs_isa(target, line->isa),
                 "the chooser of '" + generic + "' picked '" + call.stem + "', not a specialisation of it for the target");
}
}  // namespace

void choose_variants(const Graph& graph, const std::vector<Op>& ops, const Target& target,
                     std::vector<KernelCall>& calls, const std::set<size_t>& int8_weight_steps) {
  Target narrow = target;
  narrow.optimize_balanced = true;
  MICROAOT_CHECK(ops.size() == calls.size(), "one call per op");
  for (size_t i = 0; i < calls.size(); ++i) {
    KernelCall& call = calls[i];
    const OpHandler& handler = op_handler(ops[i].kind);
    const Target& layer_target = int8_weight_steps.count(i) != 0 ? narrow : target;
    if (call.custom || handler.choose == nullptr || !is_specialised(call.stem)) {
      if (call.specialisation.empty()) call.specialisation = isa_fallback(call, layer_target);
      continue;
    }
    const std::string generic = call.stem;
    const std::string wider = wider_implementation(generic, layer_target);
    if (!wider.empty()) {
      call.specialisation = "the " + wider + " implementation of " + generic + ", faster than its specialisations";
      continue;
    }
    handler.choose(graph, ops[i], layer_target, call);
    check_choice(generic, call, layer_target);
  }
  share_kernels(calls);
}

void choose_kernels(CompiledModel& model) {
  MICROAOT_CHECK(model.planned_variants.size() == model.calls.size(), "choose_kernels before the memory plan");
  for (size_t step = 0; step < model.calls.size(); ++step) model.calls[step].variant = model.planned_variants[step];
  select_kernels(model.calls, model.options.target);
}

}  // namespace microaot
