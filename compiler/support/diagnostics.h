// Two kinds of failure: a CompileError is the user's problem (bad model, unsupported op, no fit, or a
// bad option: UsageError) and carries a message that names the operator and tensor; MICROAOT_CHECK
// guards compiler invariants and aborts with file and line, because a broken invariant is our bug.
#pragma once

#include <stdexcept>
#include <string>

namespace microaot {

class CompileError : public std::runtime_error {
 public:
  explicit CompileError(const std::string& message) : std::runtime_error(message) {}
};

// A command line or option value that is wrong in itself, whatever the model (`microaot` exits with 2).
class UsageError : public CompileError {
 public:
  explicit UsageError(const std::string& message) : CompileError(message) {}
};

[[noreturn]] void internal_error(const char* file, int line, const char* condition, const std::string& message);

}  // namespace microaot

#define MICROAOT_CHECK(cond, msg)                                             \
  do {                                                                        \
    if (!(cond)) ::microaot::internal_error(__FILE__, __LINE__, #cond, (msg)); \
  } while (0)
