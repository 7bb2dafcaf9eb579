// Parsing and checking of --custom-op values; the header is read here so that codegen copies it into the
// output folder without touching the file system.
#include "driver/custom_op_options.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "support/byte_size.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
constexpr const char* kForm = "expected NAME=HEADER[,function=FN][,scratch=BYTES]";
constexpr uint64_t kMaxHeaderBytes = 1 << 20;  // a header, not a data file

bool is_c_identifier(const std::string& text) { return !default_custom_function(text).empty(); }

// The file name NAME.c includes as "custom/<name>": safe inside a C string, and a header.
bool is_plain_header_name(const std::string& name) {
  const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
  return plain && name.size() > 2 && name.compare(name.size() - 2, 2, ".h") == 0;
}

void set_key(CustomOpBinding& binding, const std::string& item, std::set<std::string>& seen, const std::string& what) {
  const size_t eq = item.find('=');
  const std::string key = item.substr(0, eq);
  if (eq == std::string::npos || eq + 1 == item.size()) throw UsageError(what + ": '" + key + "' needs a value");
  if (!seen.insert(key).second) throw UsageError(what + ": '" + key + "' is given twice");
  const std::string value = item.substr(eq + 1);
  if (key == "function") {
    if (!is_c_identifier(value)) throw UsageError(what + ": function '" + value + "' is not a C identifier");
    binding.function = value;
  } else if (key == "scratch") {
    binding.scratch_bytes = parse_byte_size(value, what + ": scratch", 0);
  } else {
    throw UsageError(what + ": unknown key '" + key + "' (keys: function, scratch)");
  }
}

// The user's `kind` ("header", "source") at `path`, at most 1 MiB.
std::string read_user_file(const std::string& path, const std::string& what, const std::string& kind = "header") {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw CompileError(what + ": cannot read " + kind + " '" + path + "'");
  if (std::filesystem::file_size(path, error) > kMaxHeaderBytes || error) {
    throw CompileError(what + ": " + kind + " '" + path + "' is larger than 1 MiB");
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  if (!file) throw CompileError(what + ": cannot read " + kind + " '" + path + "'");
  return text.str();
}
}  // namespace

CustomOpBinding parse_custom_op(const std::string& text) {
  const std::string what = "--custom-op " + text;
  const size_t eq = text.find('=');
  if (eq == std::string::npos) throw UsageError(what + ": " + kForm);
  CustomOpBinding binding;
  binding.name = text.substr(0, eq);
  binding.function = default_custom_function(binding.name);
  if (binding.function.empty()) {
    throw UsageError(what + ": NAME '" + binding.name + "' must be letters, digits and '_', not starting with a "
                     "digit (it makes the function name microaot_custom_<name>)");
  }
  std::stringstream rest(text.substr(eq + 1));
  std::getline(rest, binding.header, ',');
  const std::string file_name = custom_header_file_name(binding);
  if (!is_plain_header_name(file_name)) {
    throw UsageError(what + ": HEADER must be a file NAME.h (letters, digits, '_', '-', '.'), got '" + binding.header + "'");
  }
  std::set<std::string> seen;
  for (std::string item; std::getline(rest, item, ',');) set_key(binding, item, seen, what);
  return binding;
}

CustomOpBindings resolve_custom_ops(const std::vector<std::string>& texts) {
  CustomOpBindings bindings;
  std::set<std::string> names;
  for (const std::string& text : texts) {
    bindings.push_back(parse_custom_op(text));
    if (!names.insert(bindings.back().name).second) {
      throw UsageError("--custom-op " + bindings.back().name + " is given twice");
    }
    for (const CustomOpBinding& other : bindings) {
      if (custom_header_output_path(other) == custom_header_output_path(bindings.back()) &&
          std::filesystem::absolute(other.header) != std::filesystem::absolute(bindings.back().header)) {
        throw UsageError("--custom-op " + bindings.back().name + ": header '" + bindings.back().header +
                         "' has the file name of '" + other.header + "'; the output folder holds both as " +
                         custom_header_output_path(other));
      }
    }
  }
  for (CustomOpBinding& binding : bindings) binding.header_text = read_user_file(binding.header, "--custom-op " + binding.name);
  return bindings;
}

std::map<std::string, std::string> custom_source_files(const CustomOpBindings& bindings,
                                                      const std::vector<std::string>& sources) {
  std::vector<std::string> paths = sources;
  for (const CustomOpBinding& binding : bindings) {
    if (!sources.empty()) break;
    const std::string sibling = std::filesystem::path(binding.header).replace_extension(".c").string();
    std::error_code error;
    if (!std::filesystem::is_regular_file(sibling, error)) {
      throw CompileError("--custom-op " + binding.name + ": this command builds a program, so it needs the C source "
                         "of " + binding.function + ": give --custom-source FILE.c, or put " +
                         std::filesystem::path(sibling).filename().string() + " beside " + binding.header);
    }
    paths.push_back(sibling);
  }
  std::map<std::string, std::string> files;
  for (const std::string& path : paths) {
    const std::string name = std::filesystem::path(path).filename().string();
    if (name.size() < 3 || name.compare(name.size() - 2, 2, ".c") != 0 ||
        !is_plain_header_name(name.substr(0, name.size() - 2) + ".h")) {
      throw UsageError("--custom-source '" + path + "': a C file NAME.c (letters, digits, '_', '-', '.')");
    }
    if (!files.emplace("custom/" + name, read_user_file(path, "--custom-source", "source")).second) {
      throw UsageError("--custom-source: two sources named " + name);
    }
  }
  return files;
}

}  // namespace microaot
