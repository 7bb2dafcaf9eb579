// Which sources of a folder the build files compile for size (-Os) at --optimize speed and balanced: the
// executor's API, the platform hooks, NAME.c (its step function runs once per operator), every kernel source
// that says its work is per call ("microaot-work: per call": entry points, bounds tests, per-channel
// constants), and every kernel source whose layers together do under 1/1000 of the model's work (a final
// softmax or FULLY_CONNECTED). Flash saved where no time goes: 1.3 KB of KWS's code for 0.04% more
// instructions. At --optimize size the whole library is built with -Os.
#pragma once

#include <set>
#include <string>

#include "compile/compile_model.h"

namespace microaot {

struct SourceLevels {
  std::set<std::string> size;   // folder paths: "kernels/softmax_s8.c", "platform.c"
  std::set<std::string> speed;  // the folder's other runtime sources, left at the user's -O
};

// Both empty at --optimize size. The graph executor's kernels and interpreter loop run any blob's layers:
// only its API and the sources whose work is per call are built for size.
SourceLevels source_levels(const CompiledModel& model);

// A layer's work: its MACs, or its output elements when more (an ADD, a copy, a softmax).
int64_t step_work(const CompiledModel& model, size_t step);

}  // namespace microaot
