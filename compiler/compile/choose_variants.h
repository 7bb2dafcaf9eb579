// The one stage that decides which specialisation of its family each kernel call takes (issue 29). Handlers
// lower every op to its family's generic stem; after every op is lowered, choose_variants walks the calls and
// asks each family's chooser (OpHandler::choose) for the specialisation (kernel_list.def's
// MICROAOT_KERNEL_SPECIALISATION lines; the fit rules in runtime/include/microaot/fit/), then folds the model's
// calls by parent (share_kernels). What stays later: plain or overlap (apply_variants, plan_memory.cpp: it needs
// the memory plan) and the ISA source (select_kernels, once the variant is known).
#pragma once

#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"
#include "target/target.h"

namespace microaot {

// Whether some MICROAOT_KERNEL_SPECIALISATION line of the list specialises `stem` for an instruction set the
// target runs: then the family's chooser is asked.
bool has_specialisation_for(const std::string& stem, const Target& target);

// calls[i] is ops[i]'s lowered call. Each call of a generic stem with a specialisation for the target goes
// through its family's chooser, which states the choice (KernelCall::specialisation, network_info.txt and
// report.json); then share_kernels folds the calls across the model.
void choose_variants(const Graph& graph, const std::vector<Op>& ops, const Target& target,
                     std::vector<KernelCall>& calls);

}  // namespace microaot
