// The C program `microaot run` links with a compiled model on the host: reads raw input files, runs the
// model once through its public API and writes raw output files (and, on request, every intermediate).
#pragma once

#include <string>

#include "compile/compile_model.h"

namespace microaot {

// Usage of the built program: `harness OUT_DIR DUMP(0|1) BATCH(0|1) IN0 [IN1 ...]`.
std::string host_harness_source(const CompiledModel& model);

}  // namespace microaot
