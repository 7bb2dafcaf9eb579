#include "codegen/runtime_files.h"

#include "support/diagnostics.h"

namespace microaot {

std::string runtime_file(const std::string& path) {
  for (const EmbeddedFile* f = kRuntimeFiles; f->path != nullptr; ++f) {
    if (path == f->path) return std::string(reinterpret_cast<const char*>(f->data), f->size);
  }
  MICROAOT_CHECK(false, "runtime file not embedded: " + path);
}

}  // namespace microaot
