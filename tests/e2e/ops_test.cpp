// The single-operator suite in ../shared/ops: every case of an operator microaot supports is compiled,
// run on its golden vectors and compared. Cases whose type combination the compiler refuses with a clear
// "not supported" error are skipped (and listed); int8 and float32 cases must all pass.
// The first case of each operator builds the generated folder as a user does (all its sources), in suite
// SharedOps_<family> (the family column of ir/op_list.def); the others link the runtime kernels built once by
// CMake (`run --runtime-lib`), in suite SharedOps_<family>_prebuilt. ctest labels them from these names
// (tests/op_case_labels.cmake). Every kernel's source is checked apart, by the kernel registry's unit test.
// The second case of each operator runs under the graph executor (--executor graph: the interpreter over the
// same kernels), so that every operator's kernels, lists and optional arguments pass through a model blob too.
// The sanitizer pass runs only the first cases (scripts/test.sh), linked with the runtime compiled with the
// sanitizers: every handler's path through the compiler runs sanitized; the kernels of the other dtypes run
// sanitized in that build's kernel unit tests.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "e2e_util.h"
#include "ir/graph.h"

using nlohmann::json;

namespace microaot::e2e {
namespace {

struct OpCase {
  std::string path;  // OP/case under ../shared/ops
  std::string family;
  bool first_of_kind;  // the first case of its operator
  bool graph;          // the second: run under the graph executor
};

#ifdef MICROAOT_SANITIZED_RUNTIME
constexpr bool kSanitizedRuntime = true;
#else
constexpr bool kSanitizedRuntime = false;
#endif

// Builds every source of the folder, as a user does, instead of linking the prebuilt runtime.
bool builds_as_user(const OpCase& c) { return c.first_of_kind && !kSanitizedRuntime; }

std::map<std::string, std::string> family_of_supported_ops() {
  std::map<std::string, std::string> families;
  for (int k = 0; k < kOpKindCount; ++k) {
    families[op_kind_name(static_cast<OpKind>(k))] = op_kind_family(static_cast<OpKind>(k));
  }
  return families;
}

std::vector<OpCase> supported_cases() {
  std::vector<OpCase> cases;
  std::ifstream in(shared_dir() + "/ops/index.json");
  if (!in) return cases;
  const std::map<std::string, std::string> families = family_of_supported_ops();
  std::map<std::string, int> listed;  // cases listed per operator
  for (const json& entry : json::parse(in)) {
    const auto op = families.find(entry["op"].get<std::string>());
    if (op == families.end()) continue;
    const int before = listed[op->first]++;
    cases.push_back({entry["path"], op->second, before == 0, before == 1});
  }
  return cases;
}

std::string test_name(const std::string& path) {
  std::string name;
  for (char c : path) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

class OpCaseTest : public ::testing::Test {
 public:
  explicit OpCaseTest(OpCase op_case) : case_(std::move(op_case)) {}
  void TestBody() override;

 private:
  void expect_outputs_match(const json& golden, const std::string& dir, const std::string& out);
  OpCase case_;
};

void OpCaseTest::TestBody() {
  MICROAOT_REQUIRE_SHARED();
  const std::string dir = shared_dir() + "/ops/" + case_.path;
  std::ifstream in(dir + "/golden.json");
  const json golden = json::parse(in);
  const std::string out = make_temp_dir();
  std::vector<std::string> args = {"run", dir + "/model.tflite", "--batch", "--output-dir", out};
  if (!builds_as_user(case_)) args.insert(args.end(), {"--runtime-lib", runtime_lib()});
  if (case_.graph) args.insert(args.end(), {"--executor", "graph"});
  for (const json& v : golden["vectors"]) {
    for (const auto& input : v["inputs"]) args.insert(args.end(), {"--input", dir + "/" + input.get<std::string>()});
  }
  std::string errors;
  const int status = run_microaot_capture(args, errors);
  const std::string dtype = golden["dtype"];
  if (status != 0 && errors.find("not supported") != std::string::npos && dtype != "int8" && dtype != "float32") {
    remove_dir(out);
    GTEST_SKIP() << "refused as unsupported: " << errors;
  }
  ASSERT_EQ(status, 0) << errors;
  expect_outputs_match(golden, dir, out);
  remove_dir(out);
}

void OpCaseTest::expect_outputs_match(const json& golden, const std::string& dir, const std::string& out) {
  const bool quirk = golden.contains("tflm_quirk");
  for (size_t k = 0; k < golden["vectors"].size(); ++k) {
    const json& outputs = golden["vectors"][k]["outputs"];
    for (size_t j = 0; j < outputs.size(); ++j) {
      const std::string diff =
          compare_tensor(golden["outputs"][j]["dtype"],
                         read_file(out + "/" + std::to_string(k) + "/output" + std::to_string(j) + ".bin"),
                         read_file(dir + "/" + outputs[j].get<std::string>()));
      if (quirk && !diff.empty()) {
        std::cout << "[ INFO ] " << case_.path << ": differs where TFLM departs from TFLite (" << diff << ")\n";
        continue;
      }
      EXPECT_EQ(diff, "") << case_.path << " vector " << k << " output " << j;
    }
  }
}

// Stands for the op cases when ../shared/ops has none: fails in CI, skipped elsewhere.
class NoSharedOps : public ::testing::Test {
 public:
  void TestBody() override {
    MICROAOT_REQUIRE_SHARED();
    MICROAOT_PLACEHOLDER("../shared/ops");
  }
};

// Registered at start-up (discovery included), so the cases are the ones present when ctest runs.
bool register_op_cases() {
  const std::vector<OpCase> cases = supported_cases();
  for (const OpCase& c : cases) {
    const std::string suite = "SharedOps_" + c.family + (c.first_of_kind ? "" : "_prebuilt");
    ::testing::RegisterTest(suite.c_str(), test_name(c.path).c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [c]() -> ::testing::Test* { return new OpCaseTest(c); });
  }
  if (cases.empty()) {
    ::testing::RegisterTest("SharedOps", "no_shared_ops", nullptr, nullptr, __FILE__, __LINE__,
                            []() -> ::testing::Test* { return new NoSharedOps; });
  }
  return true;
}
const bool kOpCasesRegistered = register_op_cases();

}  // namespace
}  // namespace microaot::e2e
