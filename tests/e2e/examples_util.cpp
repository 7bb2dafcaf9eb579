// Helpers of the example tests: a README's commands run in a copy of examples/, and what they print read
// back (hex bytes, op_profiler tables) for comparison with the goldens.
#include "examples_util.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "e2e_util.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace microaot::e2e {

std::string readme_commands(const std::string& example, size_t index) {
  std::istringstream readme(read_text(std::string(MICROAOT_EXAMPLES_DIR) + "/" + example + "/README.md"));
  std::string commands;
  bool inside = false;
  size_t seen = 0;
  for (std::string line; std::getline(readme, line);) {
    if (inside && line.rfind("```", 0) == 0) {
      if (seen++ == index) return commands;
      inside = false;
      commands.clear();
    } else if (inside) {
      commands += line + "\n";
    } else if (line == "```sh") {
      inside = true;
    }
  }
  return "";
}

ExampleRun run_readme(const std::string& example, size_t index, const std::map<std::string, std::string>& vars,
                      const std::string& tmp) {
  ExampleRun run;
  fs::copy(MICROAOT_EXAMPLES_DIR, tmp + "/examples", fs::copy_options::recursive);
  run.dir = tmp + "/examples/" + example;
  const std::string commands = readme_commands(example, index);
  if (commands.empty()) {
    run.errors = "README.md of " + example + " has no ```sh block " + std::to_string(index);
    return run;
  }
  std::ofstream(tmp + "/readme.sh") << commands;
  const char* path = std::getenv("PATH");
  std::vector<std::string> argv = {"env", "PATH=" + fs::path(MICROAOT_BIN).parent_path().string() + ":" +
                                              (path != nullptr ? path : "/usr/bin:/bin")};
  for (const auto& [name, value] : vars) argv.push_back(name + "=" + value);
  argv.insert(argv.end(), {"sh", "-c", "cd \"$0\" && exec sh -e \"$1\"", run.dir, tmp + "/readme.sh"});
  run.status = run_process(argv, tmp + "/readme.err", tmp + "/readme.out");
  run.output = read_text(tmp + "/readme.out");
  run.errors = read_text(tmp + "/readme.err");
  return run;
}

std::vector<uint8_t> hex_bytes_after(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::istringstream words(line.substr(prefix.size()));
    std::vector<uint8_t> bytes;
    for (std::string word; words >> word;) bytes.push_back(static_cast<uint8_t>(std::stoul(word, nullptr, 16)));
    return bytes;
  }
  return {};
}

std::vector<ProfileRow> profile_rows(const std::string& text) {
  std::istringstream lines(text);
  std::vector<ProfileRow> rows;
  bool table = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    ProfileRow row;
    if (line.rfind("step operator", 0) == 0) table = true;
    if (!table || line.rfind("step", 0) == 0) continue;
    if (line.find(" total ") == std::string::npos) words >> row.step;
    if (!(words >> row.op >> row.runs >> row.counts >> row.per_run >> row.share)) break;
    rows.push_back(row);
  }
  return rows;
}

std::vector<std::string> report_ops(const std::string& folder) {
  std::ifstream in(folder + "/report.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  std::vector<std::string> ops;
  for (const auto& op : report["ops"]) ops.push_back(op["op"].get<std::string>());
  return ops;
}

std::string golden_difference(const std::string& model, size_t vector, const std::vector<uint8_t>& printed) {
  std::ifstream in(shared_model_file(model, "golden.json"));
  const nlohmann::json golden = nlohmann::json::parse(in);
  const std::string want = shared_model_file(model, golden["vectors"][vector]["outputs"][0].get<std::string>());
  return compare_tensor(golden["outputs"][0]["dtype"].get<std::string>(), printed, read_file(want));
}

std::string shared_model_file(const std::string& model, const std::string& file) {
  return shared_dir() + "/models/" + model + "/" + file;
}

void ExampleTest::SetUp() { tmp_ = make_temp_dir(); }
void ExampleTest::TearDown() { remove_dir(tmp_); }

std::map<std::string, std::string> model_and_input(const std::string& model) {
  return {{"MODEL", shared_model_file(model, "model.tflite")},
          {"INPUT", shared_model_file(model, "vectors/0.input0.bin")}};
}

}  // namespace microaot::e2e
