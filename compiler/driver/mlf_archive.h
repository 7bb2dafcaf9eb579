// tvmc's Model Library Format (`--output-format=mlf`): the library as a tar archive laid out as tvmc
// lays it out (metadata version 7): codegen/host/src and codegen/host/include for the generated C,
// runtime/ for the kernels it calls (tvmc's place for the standalone C runtime), metadata.json with the
// memory figures, and reports/ for microaot's own reports.
#pragma once

#include <string>

#include "codegen/emit.h"

namespace microaot {

// The archive's files (paths relative to its root) for a model and its library folder's files; the
// folder's build files (CMakeLists.txt, NAME.mk) are left out, their paths would not hold.
FileSet mlf_files(const CompiledModel& model, const FileSet& library);

// The archive itself: "./", the marker (microaot.json) when there is one, then every folder and file of
// `files` in path order (a folder before what it holds).
std::string mlf_tar(const FileSet& files);

// True when the file at `path` is an archive microaot wrote (its marker is among the first members).
bool is_microaot_archive(const std::string& path);

}  // namespace microaot
