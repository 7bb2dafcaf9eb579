// `run --kernel-source PATH=FILE`: the generated folder's kernel file PATH replaced by FILE before the build,
// so the differential harness (tools/differential.cpp) can run a candidate implementation against the
// portable one on the same model. Only a file the model's folder has may be replaced.
#pragma once

#include <string>
#include <vector>

#include "codegen/emit.h"

namespace microaot {

// Throws UsageError for a malformed spec, a PATH the folder does not have, or an unreadable FILE.
void replace_kernel_sources(FileSet& files, const std::vector<std::string>& specs);

}  // namespace microaot
