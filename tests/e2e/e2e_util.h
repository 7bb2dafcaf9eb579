// Helpers of the end-to-end tests: where the shared models are, running the microaot binary, reading
// files and comparing tensors the way the golden README says (int exact, float with a scaled tolerance).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace microaot::e2e {

// ../shared beside the checkout. Tests that need it skip when it is absent, unless CI is set (then fail).
std::string shared_dir();
bool shared_available();
bool in_ci();
// The models of ../shared/models that have goldens, sorted; {kNoSharedModels} when there are none, so
// that parameterized suites still instantiate (and their tests skip or fail by MICROAOT_REQUIRE_SHARED_MODEL).
inline constexpr const char* kNoSharedModels = "no_shared_models";
std::vector<std::string> shared_model_names();
// The same for ../shared/models-recurrent (stateful models).
std::vector<std::string> recurrent_model_names();
// Why `microaot compile` refuses the model for its operators ("" when it compiles or fails otherwise):
// suites over ../shared/models-recurrent run the models whose operators are supported and skip the rest.
std::string unsupported_operators(const std::string& model_path);
// arm-none-eabi-gcc and qemu-system-arm are installed (the Cortex-M tests, label qemu, need both).
bool arm_tools_available();

// The runtime kernels built once by CMake with this build's flags: `run --runtime-lib` links them instead of
// compiling each generated folder's kernels/*.c again.
std::string runtime_lib();

// Runs build/microaot with the arguments; returns its exit status.
int run_microaot(const std::vector<std::string>& args);
// Same, capturing stderr into `errors` (and stdout into `output` when given).
int run_microaot_capture(const std::vector<std::string>& args, std::string& errors, std::string* output = nullptr);

std::vector<uint8_t> read_file(const std::string& path);
std::string read_text(const std::string& path);
// Writes `makefile` to DIR/Makefile and runs `make TARGET` in DIR, which links `objects` (paths relative to
// DIR, .c files named by their .o) into DIR/TARGET; empty on success, else make's errors.
std::string make_program(const std::string& dir, const std::string& makefile_head, const std::string& target,
                         const std::string& objects);
std::string make_temp_dir();
// Writes DIR/unsupported.tflite, int8 [1, 4] -> LSH_PROJECTION (builtin code 15, which TFLite Micro does not run
// either) -> [1, 4], and returns its path: a model microaot reads but cannot compile.
std::string write_unsupported_op_model(const std::string& dir);
void remove_dir(const std::string& path);

// Empty when `got` matches `want` for the dtype ("int8", "float32", ...); else a description of the
// first difference and the number of differing elements (ir/tensor_compare.h: the golden tolerance).
std::string compare_tensor(const std::string& dtype, const std::vector<uint8_t>& got,
                           const std::vector<uint8_t>& want);

}  // namespace microaot::e2e

// Skips (or, in CI, fails) a test when ../shared is not there.
#define MICROAOT_REQUIRE_SHARED()                                                      \
  do {                                                                                 \
    if (!::microaot::e2e::shared_available()) {                                        \
      if (::microaot::e2e::in_ci()) FAIL() << "CI is set but ../shared is missing";    \
      GTEST_SKIP() << "../shared is not beside this checkout";                         \
    }                                                                                  \
  } while (0)

// A placeholder test stands in for the cases of `what` when there are none: it fails in CI, so that a run
// without the shared cases can never pass there, and is skipped elsewhere.
#define MICROAOT_PLACEHOLDER(what)                                                                  \
  do {                                                                                              \
    if (::microaot::e2e::in_ci()) FAIL() << "CI is set but " << (what) << " has no cases";         \
    GTEST_SKIP() << (what) << " has no cases: placeholder";                                         \
  } while (0)

// MICROAOT_REQUIRE_SHARED, then the placeholder rule for a parameter of shared_model_names().
#define MICROAOT_REQUIRE_SHARED_MODEL(name)                                                         \
  do {                                                                                              \
    MICROAOT_REQUIRE_SHARED();                                                                      \
    if ((name) == ::microaot::e2e::kNoSharedModels) MICROAOT_PLACEHOLDER("../shared/models");       \
  } while (0)

// Also skips (or, in CI, fails) when the Arm compiler or QEMU is missing.
#define MICROAOT_REQUIRE_QEMU()                                                                    \
  do {                                                                                             \
    MICROAOT_REQUIRE_SHARED();                                                                     \
    if (!::microaot::e2e::arm_tools_available()) {                                                 \
      if (::microaot::e2e::in_ci()) FAIL() << "CI is set but arm-none-eabi-gcc or qemu-system-arm is missing"; \
      GTEST_SKIP() << "arm-none-eabi-gcc or qemu-system-arm is not installed (scripts/setup.sh)";  \
    }                                                                                              \
  } while (0)
