// One fuzz input through the whole compile path in memory: bytes -> compile_model -> emit_library.
// Shared by the libFuzzer target and the regression-corpus test so both exercise exactly the same code.
#pragma once

#include <cstddef>
#include <cstdint>

namespace microaot::fuzz {

enum class Outcome { kCompiled, kRefused };

// Returns kRefused when the compiler threw CompileError (a clean refusal). Anything else that goes wrong
// (another exception, a MICROAOT_CHECK abort, a sanitizer report) escapes and is a bug.
Outcome compile_one(const uint8_t* data, size_t size);

}  // namespace microaot::fuzz
