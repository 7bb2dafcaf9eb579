#include "support/diagnostics.h"

#include <cstdio>
#include <cstdlib>

namespace microaot {

void internal_error(const char* file, int line, const char* condition, const std::string& message) {
  std::fprintf(stderr, "microaot: internal compiler error at %s:%d: check '%s' failed: %s\n", file, line,
               condition, message.c_str());
  std::fprintf(stderr, "This is a bug in microaot, not in your model. Please report it with the model.\n");
  std::abort();
}

}  // namespace microaot
