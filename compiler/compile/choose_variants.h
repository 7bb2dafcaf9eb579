// The one stage that decides which kernel each call takes (issue 29), in two steps around memory planning.
// Handlers lower every op to its family's generic stem. Then choose_variants walks the calls and asks each
// family's chooser (OpHandler::choose) for the specialisation the target runs (kernel_list.def's
// MICROAOT_KERNEL_SPECIALISATION lines; the fit rules in runtime/include/microaot/fit/), and folds the model's
// calls by parent (share_kernels): the scratch each call needs is then known. After the plan, choose_kernels
// gives each call the variant the plan needs (plain, or overlap where its output shares its input's bytes) and
// the implementation the target runs (select_kernels: an ISA source or the portable one).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "compile/compile_model.h"
#include "ir/graph.h"
#include "kernels/kernel_call.h"
#include "target/target.h"

namespace microaot {

// calls[i] is ops[i]'s lowered call. Each call of a stem the list specialises (on any instruction set) goes
// through its family's chooser, which picks a specialisation the target runs, or none, and states why
// (KernelCall::specialisation, network_info.txt and report.json); a call of another stem states why its
// instruction-set implementation runs its portable loop for the layer, if it does (kernels/isa_fallbacks.h); then
// share_kernels folds the calls across the model. The steps in `int8_weight_steps` choose as --optimize balanced does: packed weights stay int8
// (compile/fit_flash.h keeps those layers narrow to fit --flash-budget).
void choose_variants(const Graph& graph, const std::vector<Op>& ops, const Target& target,
                     std::vector<KernelCall>& calls, const std::set<size_t>& int8_weight_steps = {});

// After plan_model_memory: each call's variant (model.planned_variants) and kernel id and source.
void choose_kernels(CompiledModel& model);

}  // namespace microaot
