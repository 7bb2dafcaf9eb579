// Running an example of examples/ the way its README says: a README's ```sh block, in a copy of
// examples/, with the built microaot first on the PATH and the README's variables (MODEL, INPUT, ...)
// set; then reading what it printed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace microaot::e2e {

// The commands of the `index`-th ```sh block (0: the first) of examples/EXAMPLE/README.md; empty if none.
std::string readme_commands(const std::string& example, size_t index);

struct ExampleRun {
  int status = -1;     // of the whole block (sh -e: the first failing command's)
  std::string output;  // stdout of the block
  std::string errors;  // stderr of the block
  std::string dir;     // the example's copy, where the block ran (build/ is in it)
};

// Copies examples/ into `tmp` and runs block `index` of EXAMPLE's README in the example's copy.
ExampleRun run_readme(const std::string& example, size_t index, const std::map<std::string, std::string>& vars,
                      const std::string& tmp);

// The bytes written in hex ("80 ab 55") after `prefix` on the first line of `text` that starts with it.
std::vector<uint8_t> hex_bytes_after(const std::string& text, const std::string& prefix);

// The rows of an op_profiler table (examples/profiler) in `text`, the "total" row last (its step empty).
struct ProfileRow {
  std::string step, op;
  uint64_t runs = 0, counts = 0, per_run = 0;
  double share = 0;  // percent
};
std::vector<ProfileRow> profile_rows(const std::string& text);

// The operator names of report.json in a folder microaot wrote, in the order of the run.
std::vector<std::string> report_ops(const std::string& folder);

// Empty when `printed` equals output 0 of golden vector `vector` of a shared model (float: within the
// golden tolerance); else the difference.
std::string golden_difference(const std::string& model, size_t vector, const std::vector<uint8_t>& printed);

// MODEL and INPUT (golden vector 0) of a shared model, as the single-model READMEs name them.
std::map<std::string, std::string> model_and_input(const std::string& model);

// A file of a shared model ("kws_dscnn_int8", "vectors/0.input0.bin").
std::string shared_model_file(const std::string& model, const std::string& file);

// A fresh temporary folder per test, where examples/ is copied and a README block runs.
class ExampleTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  ExampleRun run(const std::string& example, const std::map<std::string, std::string>& vars, size_t index = 0) {
    return run_readme(example, index, vars, tmp_);
  }

  std::string tmp_;
};

}  // namespace microaot::e2e
