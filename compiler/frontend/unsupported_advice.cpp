#include "frontend/unsupported_advice.h"

#include <cctype>

namespace microaot {

namespace {
// Operators a model can express with operators microaot compiles; the rewrite is done before conversion.
struct Rewrite {
  const char* name;
  const char* hint;
};
constexpr Rewrite kRewrites[] = {
    {"LSTM", "convert the Keras LSTM layer to UNIDIRECTIONAL_SEQUENCE_LSTM, the TFLite converter's default"},
    {"GELU", "write it out in the model with TANH, MUL and ADD (GELU's tanh form) before converting"},
};

// "GELU" -> "gelu", a C identifier made of the name.
std::string c_name(const std::string& name) {
  std::string text;
  for (char c : name) text += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return text;
}
}  // namespace

std::string rewrite_hint(const std::string& builtin_name) {
  for (const Rewrite& r : kRewrites) {
    if (builtin_name == r.name) return std::string(" (or ") + r.hint + ")";
  }
  return "";
}

std::string unsupported_advice(const std::string& example) {
  const std::string name = example.empty() ? "NAME" : example;
  const std::string id = example.empty() ? "name" : c_name(example);
  return "\nWhat to do: bind each to a C function of yours with --custom-op NAME=HEADER,function=FN[,scratch=BYTES], "
         "e.g. --custom-op " + name + "=" + id + ".h,function=my_" + id +
         " (examples/custom-op/README.md); `microaot inspect --supported` lists the operators microaot compiles.";
}

}  // namespace microaot
