#include "compile_one.h"

#include <vector>

#include "codegen/emit.h"
#include "compile/compile_model.h"
#include "support/diagnostics.h"

namespace microaot::fuzz {

Outcome compile_one(const uint8_t* data, size_t size) {
  // A fresh vector: the reader wants an 8-byte-aligned buffer, as a file read into memory would be.
  const std::vector<uint8_t> bytes(data, data + size);
  try {
    const CompiledModel model = compile_model(bytes, CompileOptions{});
    const FileSet files = emit_library(model);
    MICROAOT_CHECK(!files.empty(), "a compiled model emitted no files");
    return Outcome::kCompiled;
  } catch (const CompileError&) {
    return Outcome::kRefused;
  }
}

}  // namespace microaot::fuzz
