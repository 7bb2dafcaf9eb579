// libFuzzer entry for the graph executor's blob loader (runtime/executor/graph_load.c): any bytes are
// refused with a status or run with every address inside the blob and the arena; ASan watches the rest.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "blob_one.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string problem = microaot::fuzz::load_blob_once(data, size);
  if (!problem.empty()) {
    std::fprintf(stderr, "blob loader accepted a blob whose step went astray: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
