// ONNX's own backend node tests (Debian's libonnx-testdata): every case is compiled in-process; a case the
// compiler refuses counts as refused, with its reason; every other case is built against the prebuilt
// runtime (`run --runtime-lib`), run on its test_data_set_* inputs and compared with the expected outputs
// (ir/tensor_compare.h's float tolerance). Wrong (compiled, but failing to build, run or match) must be 0.
// The counts per operator go to onnx_conformance.md in the build folder; scripts/onnx_doc.sh copies them
// into docs/onnx.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <set>

#include "compile/compile_model.h"
#include "e2e_util.h"
#include "frontend/onnx_reader.h"
#include "ir/tensor_compare.h"
#include "onnx/onnx_pb.h"
#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot::e2e {
namespace {

#ifndef MICROAOT_ONNX_NODE_TESTS
#define MICROAOT_ONNX_NODE_TESTS "/usr/share/libonnx-testdata/data/node"
#endif

enum class Outcome { kPass, kRefused, kWrong };

struct Case {
  std::string name;
  std::string dir;
  std::string op;  // its single node's op_type, or "composite: NAME" for multi-node (expanded) cases
  Outcome outcome = Outcome::kRefused;
  std::string detail;
};

std::string operator_of(const std::string& name, const std::vector<uint8_t>& bytes) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return "(unreadable)";
  if (model.graph().node_size() == 1) return model.graph().node(0).op_type();
  return "composite: " + name.substr(5);
}

std::vector<std::string> sorted_files(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;  // input_2 before input_10
  });
  return files;
}

void write_raw(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Builds and runs a compiled case on every data set; "" when every output matches.
std::string run_case(const Case& c, const std::string& work) {
  std::vector<std::string> args = {"run", c.dir + "/model.onnx", "--batch", "--runtime-lib", runtime_lib(),
                                   "--output-dir", work + "/out"};
  const std::vector<std::string> sets = sorted_files(c.dir, "test_data_set_");
  for (size_t s = 0; s < sets.size(); ++s) {
    for (const std::string& input : sorted_files(sets[s], "input_")) {
      DType dtype;
      const std::string raw = work + "/" + std::to_string(s) + "_" + fs::path(input).stem().string() + ".bin";
      write_raw(raw, read_onnx_tensor(read_file(input), dtype));
      args.insert(args.end(), {"--input", raw});
    }
  }
  std::string errors;
  if (run_microaot_capture(args, errors) != 0) return "run failed: " + errors;
  for (size_t s = 0; s < sets.size(); ++s) {
    const std::vector<std::string> outputs = sorted_files(sets[s], "output_");
    for (size_t j = 0; j < outputs.size(); ++j) {
      DType dtype;
      const std::vector<uint8_t> want = read_onnx_tensor(read_file(outputs[j]), dtype);
      const std::string got = work + "/out/" + (sets.size() > 1 ? std::to_string(s) + "/" : "0/") + "output" +
                              std::to_string(j) + ".bin";
      const std::string diff = describe_difference(compare_tensor_data(dtype, read_file(got), want));
      if (!diff.empty()) return "data set " + std::to_string(s) + " output " + std::to_string(j) + ": " + diff;
    }
  }
  return "";
}

void classify(Case& c) {
  const std::vector<uint8_t> bytes = read_file(c.dir + "/model.onnx");
  c.op = operator_of(c.name, bytes);
  try {
    CompileOptions options;
    compile_model(bytes, options);
  } catch (const std::exception& e) {
    c.outcome = Outcome::kRefused;
    c.detail = e.what();
    return;
  }
  const std::string work = make_temp_dir();
  c.detail = run_case(c, work);
  remove_dir(work);
  c.outcome = c.detail.empty() ? Outcome::kPass : Outcome::kWrong;
}

std::string first_line(const std::string& s) {
  const std::string line = s.substr(0, s.find('\n'));
  return line.size() > 160 ? line.substr(0, 157) + "..." : line;
}

void write_report(const std::vector<Case>& cases, const std::string& path) {
  std::map<std::string, std::array<int, 3>> per_op;
  std::array<int, 3> total{};
  for (const Case& c : cases) {
    ++per_op[c.op][static_cast<size_t>(c.outcome)];
    ++total[static_cast<size_t>(c.outcome)];
  }
  std::ofstream out(path);
  out << "| operator | pass | refused | wrong |\n| --- | ---: | ---: | ---: |\n";
  for (const auto& [op, n] : per_op) {
    if (op.rfind("composite: ", 0) == 0) continue;
    out << "| " << op << " | " << n[0] << " | " << n[1] << " | " << n[2] << " |\n";
  }
  std::array<int, 3> composite{};
  for (const auto& [op, n] : per_op) {
    if (op.rfind("composite: ", 0) != 0) continue;
    for (size_t k = 0; k < 3; ++k) composite[k] += n[k];
  }
  out << "| (multi-node cases: function expansions, composites) | " << composite[0] << " | " << composite[1] << " | "
      << composite[2] << " |\n";
  out << "| **total** (" << cases.size() << " cases) | **" << total[0] << "** | **" << total[1] << "** | **"
      << total[2] << "** |\n";
}

TEST(OnnxConformance, NodeTests) {
  if (!fs::is_directory(MICROAOT_ONNX_NODE_TESTS)) {
    if (in_ci()) FAIL() << MICROAOT_ONNX_NODE_TESTS << " is missing: install libonnx-testdata (scripts/setup.sh)";
    GTEST_SKIP() << "libonnx-testdata is not installed";
  }
  std::vector<Case> cases;
  for (const auto& e : fs::directory_iterator(MICROAOT_ONNX_NODE_TESTS)) {
    if (fs::exists(e.path() / "model.onnx")) {
      Case c;
      c.name = e.path().filename().string();
      c.dir = e.path().string();
      cases.push_back(c);
    }
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  // Two workers: the cases' C builds are separate processes.
  std::atomic<size_t> next{0};
  const auto worker = [&]() {
    for (size_t i = next++; i < cases.size(); i = next++) classify(cases[i]);
  };
  std::future<void> second = std::async(std::launch::async, worker);
  worker();
  second.get();
  write_report(cases, "onnx_conformance.md");
  int pass = 0, wrong = 0;
  for (const Case& c : cases) {
    pass += c.outcome == Outcome::kPass;
    if (c.outcome == Outcome::kWrong) {
      ++wrong;
      ADD_FAILURE() << c.name << " (" << c.op << "): " << first_line(c.detail);
    }
    if (c.outcome == Outcome::kRefused && std::getenv("MICROAOT_ONNX_VERBOSE") != nullptr) {
      std::cout << "[ REFUSED ] " << c.name << ": " << first_line(c.detail) << "\n";
    }
  }
  std::cout << "[ ONNX ] " << cases.size() << " cases: " << pass << " pass, " << cases.size() - pass - wrong
            << " refused, " << wrong << " wrong (table: onnx_conformance.md)\n";
  EXPECT_GT(pass, 0);
}

}  // namespace
}  // namespace microaot::e2e
