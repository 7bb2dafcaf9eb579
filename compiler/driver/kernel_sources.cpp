#include "driver/kernel_sources.h"

#include <fstream>
#include <sstream>

#include "support/diagnostics.h"

namespace microaot {

void replace_kernel_sources(FileSet& files, const std::vector<std::string>& specs) {
  for (const std::string& spec : specs) {
    const size_t equals = spec.find('=');
    if (equals == std::string::npos) throw UsageError("--kernel-source wants PATH=FILE, got '" + spec + "'");
    const std::string path = spec.substr(0, equals), file = spec.substr(equals + 1);
    auto found = files.find(path);
    if (found == files.end() || path.rfind("kernels/", 0) != 0) {
      throw UsageError("--kernel-source: the model's folder has no kernel file '" + path + "'");
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw UsageError("--kernel-source: cannot read '" + file + "'");
    found->second = text.str();
  }
}

}  // namespace microaot
