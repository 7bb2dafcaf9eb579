// Two kinds of failure: a CompileError is the user's problem (bad model, unsupported op, no fit) and
// carries a message that names the operator and tensor; MICROAOT_CHECK guards compiler invariants and
// aborts with file and line, because a broken invariant is our bug, not the user's.
#pragma once

#include <stdexcept>
#include <string>

namespace microaot {

class CompileError : public std::runtime_error {
 public:
  explicit CompileError(const std::string& message) : std::runtime_error(message) {}
};

[[noreturn]] void internal_error(const char* file, int line, const char* condition, const std::string& message);

}  // namespace microaot

#define MICROAOT_CHECK(cond, msg)                                             \
  do {                                                                        \
    if (!(cond)) ::microaot::internal_error(__FILE__, __LINE__, #cond, (msg)); \
  } while (0)
