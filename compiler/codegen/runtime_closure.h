// Which runtime files (kernels, executor, headers; paths relative to runtime/) an output folder gets, and
// where they land in it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "codegen/emit.h"

namespace microaot {

// The folder path of a runtime file: headers keep their path below runtime/include, the others drop their
// folder ("include/microaot/fixedpoint.h" -> "kernels/microaot/fixedpoint.h",
// "kernels/portable/conv_2d_s8.c" -> "kernels/conv_2d_s8.c", "executor/executor.c" -> "kernels/executor.c").
std::string output_path_of_runtime_file(const std::string& path);

// The executor's files, and each kernel's header and implementation for the target: the model's calls, or
// (graph executor) every kernel the firmware links.
std::set<std::string> needed_runtime_files(const CompiledModel& model);

// `roots` and every runtime file they bring along, transitively: each header a file includes as
// "microaot/..." and each source it names in a "microaot-links: PATH" comment.
std::set<std::string> runtime_files_reached(std::set<std::string> roots);

// Writes the runtime files of `model` into `files` and appends the output paths of its sources to `sources`, in
// build order (the executor's, the instruction-set stand-ins for portable kernels, then the others by name).
void add_runtime_files(const CompiledModel& model, FileSet& files, std::vector<std::string>& sources);

}  // namespace microaot
