// What a user can do about an operator microaot does not compile: bind it to their own C function
// (--custom-op), or, for a few operators, express it in the model with operators microaot compiles.
#pragma once

#include <string>

namespace microaot {

// " (or ...)" for a builtin operator (by its name) with a known graph rewrite, "" otherwise.
std::string rewrite_hint(const std::string& builtin_name);

// The closing paragraph of the unsupported-operators error. `example` is the first unsupported operator's
// bindable name (a builtin's name or a CUSTOM op's custom_code), "" when none has one.
std::string unsupported_advice(const std::string& example);

}  // namespace microaot
