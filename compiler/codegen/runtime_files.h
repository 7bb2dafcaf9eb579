// The runtime sources (kernels and headers) embedded in the compiler binary at build time.
#pragma once

#include <cstddef>
#include <string>

namespace microaot {

struct EmbeddedFile {
  const char* path;  // relative to runtime/, e.g. "kernels/portable/conv_2d_s8.c"
  const unsigned char* data;
  size_t size;
};

extern const EmbeddedFile kRuntimeFiles[];  // ends with a {nullptr, nullptr, 0} entry

// The embedded file at `path`; aborts (compiler bug) when a handler names a file that is not embedded.
std::string runtime_file(const std::string& path);

}  // namespace microaot
