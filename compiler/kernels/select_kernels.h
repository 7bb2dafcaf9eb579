// After memory planning, each call's final kernel: the variant the plan needs (plain, or the overlap
// variant where an output shares bytes with its input) and the fastest implementation the target can run
// (an ISA implementation of kernel_list.def when the target has that extension, else portable C).
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel_call.h"
#include "target/target.h"

namespace microaot {

// Whether the target's kernels use instruction set `isa` ("dsp", "mve"; "portable": every target): its sources
// and specialisations.
bool target_runs_isa(const Target& target, const std::string& isa);

// Whether some MICROAOT_KERNEL_SPECIALISATION line of the list specialises `stem` for an instruction set the
// target runs: where none does, a family's chooser keeps the generic stem.
bool has_specialisation_for(const std::string& stem, const Target& target,
                            const KernelRegistry& registry = kernel_registry());

// The implementation source of `stem` for `target` in `registry`: mve before dsp before portable.
std::string select_implementation(const KernelRegistry& registry, const KernelInfo& kernel, const Target& target);

// The instruction set of an implementation source: "portable", "dsp", "mve".
std::string implementation_isa(const std::string& source);

// Sets kernel and source of every call from its stem and variant (aborts on a variant the list lacks).
void select_kernels(std::vector<KernelCall>& calls, const Target& target,
                    const KernelRegistry& registry = kernel_registry());

}  // namespace microaot
