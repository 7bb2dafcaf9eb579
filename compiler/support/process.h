// Running a child process (the host C compiler, the compiled model) without a shell, so paths with
// spaces or quotes are passed through untouched.
#pragma once

#include <string>
#include <vector>

namespace microaot {

// Runs argv[0] (searched in PATH) with the arguments; returns its exit status, or -1 if it could not be
// started or was killed by a signal. The child's output goes to ours.
// With `stderr_path` / `stdout_path`, the child's standard error / output goes to that file instead.
int run_process(const std::vector<std::string>& argv, const std::string& stderr_path = "",
                const std::string& stdout_path = "");

// Splits a flags string on spaces ("-O2 -g" -> {"-O2", "-g"}); no quoting rules.
std::vector<std::string> split_flags(const std::string& flags);

}  // namespace microaot
