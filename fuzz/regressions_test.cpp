// Replays fuzz/regressions/: every input that ever crashed the fuzzer, plus small hand-made hostile files.
// Each must be refused cleanly (CompileError) or compile; a crash or abort fails the test run. blob-* files
// are inputs of the blob loader's fuzzer, refused with a status or run inside their memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "blob_one.h"
#include "compile_one.h"
#include "graph_recipe.h"

namespace fs = std::filesystem;

namespace microaot::fuzz {
namespace {

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(MICROAOT_FUZZ_REGRESSIONS)) {
    if (entry.is_regular_file() && entry.path().filename() != "README.md") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FuzzRegressions, EveryInputIsRefusedOrCompiles) {
  const std::vector<fs::path> files = corpus();
  ASSERT_GE(files.size(), 5u) << "the regression corpus is missing";
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    std::ifstream in(path, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (path.filename().string().rfind("blob-", 0) == 0) {  // blob_fuzzer inputs: the loader's
      EXPECT_EQ(load_blob_once(bytes.data(), bytes.size()), "");
      continue;
    }
    // recipe-* files are graph_fuzzer inputs: the model is built from them first.
    const std::vector<uint8_t> model = path.filename().string().rfind("recipe-", 0) == 0
                                           ? model_from_recipe(bytes.data(), bytes.size())
                                           : bytes;
    const Outcome outcome = compile_one(model.data(), model.size());
    // Hand-made files say what must happen: refuse-* are hostile by construction, accept-* are valid.
    const std::string name = path.filename().string();
    if (name.rfind("refuse-", 0) == 0) {
      EXPECT_EQ(outcome, Outcome::kRefused);
    } else if (name.rfind("accept-", 0) == 0) {
      EXPECT_EQ(outcome, Outcome::kCompiled);
    }
  }
}

}  // namespace
}  // namespace microaot::fuzz
