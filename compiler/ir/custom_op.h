// Operators bound to a user's C function (--custom-op): the binding the user states, and the IR options
// of an op read under such a binding (OpKind::Custom).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace microaot {

struct CustomOpBinding {
  std::string name;      // a CUSTOM op's custom_code, or a builtin name (SOFTMAX) to replace that builtin
  std::string header;    // the user's header declaring `function` (a path on the host)
  std::string function;  // the C function called: microaot_custom_<name> unless stated
  int64_t scratch_bytes = 0;
  std::string header_text;  // the header's contents, read by the driver; codegen copies them to the output
};
using CustomOpBindings = std::vector<CustomOpBinding>;

// The C function a binding calls when it names none: "microaot_custom_" + the name in lower case
// ("ClipScale" -> "microaot_custom_clipscale"). Empty when the name is not made of letters, digits and
// '_' only, or starts with a digit.
std::string default_custom_function(const std::string& name);

// The header's file name ("clip_scale.h" for "ops/clip_scale.h").
std::string custom_header_file_name(const CustomOpBinding& binding);
// Where the output folder holds a copy of the binding's header, and NAME.c includes it from:
// "custom/<file name of the header>".
std::string custom_header_output_path(const CustomOpBinding& binding);

// Scratch a binding may ask for (the kernels' int32 sizes; a larger request is refused).
constexpr int64_t kMaxCustomScratchBytes = (int64_t{1} << 31) - 1;

struct CustomOpOptions {
  CustomOpBinding binding;
  std::string replaced_builtin;  // the builtin's name when a builtin is replaced, else ""
  std::vector<uint8_t> options;  // the op's custom_options bytes, verbatim (empty for a builtin)
};

}  // namespace microaot
