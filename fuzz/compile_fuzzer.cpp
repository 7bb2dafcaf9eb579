// libFuzzer entry: every input must compile or be refused with a CompileError. Crashes, aborts, other
// exceptions, sanitizer reports, timeouts and runaway memory are findings (scripts/fuzz.sh runs it).
#include <cstddef>
#include <cstdint>

#include "compile_one.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  microaot::fuzz::compile_one(data, size);
  return 0;
}
