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
  bool folded = false;  // run with its later inputs made initializers (see constant_variant)
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

// Builds and runs a compiled case on every data set; "" when every output matches. `model` replaces the
// case's model and `inputs` how many of each set's inputs it takes (all when negative).
std::string run_case(const Case& c, const std::string& work, const std::string& model, int inputs) {
  std::vector<std::string> args = {"run", model, "--batch", "--runtime-lib", runtime_lib(), "--output-dir", work + "/out"};
  const std::vector<std::string> sets = sorted_files(c.dir, "test_data_set_");
  for (size_t s = 0; s < sets.size(); ++s) {
    std::vector<std::string> files = sorted_files(sets[s], "input_");
    if (inputs >= 0 && files.size() > static_cast<size_t>(inputs)) files.resize(static_cast<size_t>(inputs));
    for (const std::string& input : files) {
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

// Node tests feed weights, shapes and axes as graph inputs; a compiler for fixed models needs them constant.
// The variant of a one-data-set case with every input after the first made an initializer from its data
// (the expected outputs unchanged): it checks Conv, Gemm, Reshape, ... with constant operands against ONNX.
std::vector<uint8_t> constant_variant(const Case& c, const std::vector<uint8_t>& bytes) {
  const std::vector<std::string> sets = sorted_files(c.dir, "test_data_set_");
  onnx::ModelProto model;
  if (sets.size() != 1 || !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return {};
  const std::vector<std::string> inputs = sorted_files(sets[0], "input_");
  onnx::GraphProto* g = model.mutable_graph();
  if (inputs.size() < 2 || g->input_size() != static_cast<int>(inputs.size())) return {};
  for (size_t i = 1; i < inputs.size(); ++i) {
    onnx::TensorProto* t = g->add_initializer();
    const std::vector<uint8_t> data = read_file(inputs[i]);
    if (!t->ParseFromArray(data.data(), static_cast<int>(data.size()))) return {};
    t->set_name(g->input(static_cast<int>(i)).name());
  }
  g->mutable_input()->DeleteSubrange(1, g->input_size() - 1);
  std::string out;
  model.SerializeToString(&out);
  return {out.begin(), out.end()};
}

bool compiles(const std::vector<uint8_t>& bytes, std::string& error) {
  try {
    compile_model(bytes, CompileOptions{});
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}

void classify(Case& c) {
  const std::vector<uint8_t> bytes = read_file(c.dir + "/model.onnx");
  c.op = operator_of(c.name, bytes);
  std::string refusal;
  const std::string work = make_temp_dir();
  if (compiles(bytes, refusal)) {
    c.detail = run_case(c, work, c.dir + "/model.onnx", -1);
  } else {
    const std::vector<uint8_t> variant = constant_variant(c, bytes);
    std::string ignored;
    if (variant.empty() || !compiles(variant, ignored)) {
      remove_dir(work);
      c.outcome = Outcome::kRefused;
      c.detail = refusal;
      return;
    }
    write_raw(work + "/variant.onnx", variant);
    c.folded = true;
    c.detail = run_case(c, work, work + "/variant.onnx", 1);
  }
  remove_dir(work);
  c.outcome = c.detail.empty() ? Outcome::kPass : Outcome::kWrong;
}

std::string first_line(const std::string& s) {
  const std::string line = s.substr(0, s.find('\n'));
  return line.size() > 160 ? line.substr(0, 157) + "..." : line;
}

void write_report(const std::vector<Case>& cases, const std::string& path) {
  // pass, refused, wrong, and passes of the constant variant
  std::map<std::string, std::array<int, 4>> per_op;
  std::array<int, 4> total{};
  std::array<int, 4> composite{};
  for (const Case& c : cases) {
    for (std::array<int, 4>* n : {&per_op[c.op], &total}) {
      ++(*n)[static_cast<size_t>(c.outcome)];
      (*n)[3] += c.folded && c.outcome == Outcome::kPass;
    }
  }
  std::ofstream out(path);
  out << "| operator | pass | of which with inputs as initializers | refused | wrong |\n"
      << "| --- | ---: | ---: | ---: | ---: |\n";
  const auto row = [&out](const std::string& name, const std::array<int, 4>& n) {
    out << "| " << name << " | " << n[0] << " | " << n[3] << " | " << n[1] << " | " << n[2] << " |\n";
  };
  for (const auto& [op, n] : per_op) {
    if (op.rfind("composite: ", 0) != 0) {
      row(op, n);
      continue;
    }
    for (size_t k = 0; k < 4; ++k) composite[k] += n[k];
  }
  row("(multi-node cases: function expansions, composites)", composite);
  row("**total** (" + std::to_string(cases.size()) + " cases)", total);
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
