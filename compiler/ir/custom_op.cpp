// Names of operators bound to a user's function (--custom-op).
#include "ir/custom_op.h"

#include <cctype>
#include <filesystem>

namespace microaot {

std::string default_custom_function(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return "";
  std::string function = "microaot_custom_";
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || c == '_') || u >= 0x80) return "";
    function += static_cast<char>(std::tolower(u));
  }
  return function;
}

std::string custom_header_file_name(const CustomOpBinding& binding) {
  return std::filesystem::path(binding.header).filename().string();
}

std::string custom_header_output_path(const CustomOpBinding& binding) {
  return "custom/" + custom_header_file_name(binding);
}

}  // namespace microaot
