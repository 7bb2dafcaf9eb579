// `microaot validate`: runs a model on the host with every intermediate kept (`run --dump-tensors`) and
// compares each tensor an operator writes with a per-layer golden DIR/tN.bin (the layout of
// ../shared/models/NAME/vectors/K.tensors/), in the model's operator order, so the first differing row is
// the first layer that departs.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/commands.h"
#include "driver/custom_op_options.h"
#include "driver/output_dir.h"
#include "frontend/model_reader.h"
#include "ir/tensor_compare.h"
#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
struct Row {
  int tensor = 0;
  std::string op;  // "CONV_2D (op 3)"
  bool kept = true;  // false: no storage at run time (computed at compile time or unused)
  TensorDiff diff;
  DType dtype = DType::kUnsupported;
};

// Runs the model once with --dump-tensors into `dir`/dump.
void run_with_dumps(const ValidateCommandOptions& o, const std::string& dir) {
  RunCommandOptions run;
  run.base.model_path = o.model_path;
  run.base.custom_ops = o.custom_ops;
  run.base.custom_sources = o.custom_sources;
  run.inputs = o.inputs;
  run.output_dir = dir + "/out";
  run.dump_tensors_dir = dir + "/dump";
  run.cc = o.cc;
  run.cflags = o.cflags;
  run.keep_build = o.keep_build;
  run.quiet = true;
  run_command(run);
}

// One row per tensor an operator writes that has a reference file, in operator order.
std::vector<Row> compare_all(const Graph& graph, const std::string& reference, const std::string& dump) {
  std::vector<Row> rows;
  for (const Op& op : graph.ops) {
    for (int id : op.outputs) {
      const std::string name = "t" + std::to_string(id) + ".bin";
      if (!fs::is_regular_file(reference + "/" + name)) continue;
      Row row{id, describe_op(graph, op), fs::is_regular_file(dump + "/" + name), {}, graph.tensor(id).dtype};
      if (row.kept) {
        row.diff = compare_tensor_data(row.dtype, read_binary_file(dump + "/" + name),
                                       read_binary_file(reference + "/" + name));
      }
      rows.push_back(row);
    }
  }
  return rows;
}

std::string max_diff_text(const Row& row) {
  char text[32];
  std::snprintf(text, sizeof text, row.dtype == DType::kFloat32 ? "%.3g" : "%.0f", row.diff.max_abs_diff);
  return text;
}

std::string differing_text(const TensorDiff& d) {
  if (!d.same_size) return "size " + std::to_string(d.got_bytes) + " B, want " + std::to_string(d.want_bytes) + " B";
  return std::to_string(d.differing) + " / " + std::to_string(d.elements);
}

void print_row(const Graph& graph, const Row& row) {
  const std::string max_diff = row.kept ? max_diff_text(row) : "-";
  const std::string differing = row.kept ? differing_text(row.diff) : "not kept at run time";
  std::printf("  %6d  %-32s %12s  %-22s %s%s\n", row.tensor, row.op.c_str(), max_diff.c_str(), differing.c_str(),
              graph.tensor(row.tensor).name.c_str(), row.kept && !row.diff.matches() ? "  <- differs" : "");
}

// The verdict line(s); returns the exit status: 0 only when something was compared and all of it matches.
int print_verdict(const Graph& graph, const std::vector<Row>& rows) {
  size_t compared = 0, differing = 0;
  const Row* first = nullptr;
  for (const Row& row : rows) {
    if (!row.kept) continue;
    ++compared;
    if (row.diff.matches()) continue;
    ++differing;
    if (first == nullptr) first = &row;
  }
  if (compared < rows.size()) {
    std::printf("microaot: %zu tensor(s) with a reference are not kept at run time (computed at compile time or "
                "unused) and were not compared\n", rows.size() - compared);
  }
  if (compared == 0) {
    std::printf("microaot: no tensor could be compared\n");
    return 1;
  }
  if (first == nullptr) {
    std::printf("microaot: all %zu tensors match the reference\n", compared);
    return 0;
  }
  std::printf("microaot: %zu of %zu tensors differ; the first differing layer is %s, writing tensor %d '%s': %s\n",
              differing, compared, first->op.c_str(), first->tensor, graph.tensor(first->tensor).name.c_str(),
              describe_difference(first->diff).c_str());
  return 1;
}

// True when `dir` holds a tN.bin at all (checked before the build, which takes a while).
bool has_tensor_files(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 5 && name[0] == 't' && name.compare(name.size() - 4, 4, ".bin") == 0) return true;
  }
  return false;
}

[[noreturn]] void refuse_reference(const ValidateCommandOptions& o) {
  throw CompileError("no tN.bin in '" + o.reference_dir + "' belongs to a tensor an operator of '" + o.model_path +
                     "' writes (N is the tensor's index in the .tflite)");
}
}  // namespace

int validate_command(const ValidateCommandOptions& o) {
  if (!fs::is_directory(o.reference_dir)) throw CompileError("--reference '" + o.reference_dir + "' is not a folder");
  if (!has_tensor_files(o.reference_dir)) refuse_reference(o);
  TempDir work;
  if (o.keep_build) work.keep();
  run_with_dumps(o, work.path());
  const Graph graph = read_model(read_binary_file(o.model_path), resolve_custom_ops(o.custom_ops));
  const std::vector<Row> rows = compare_all(graph, o.reference_dir, work.path() + "/dump");
  if (rows.empty()) refuse_reference(o);
  std::printf("microaot validate: %s against %s\n  %6s  %-32s %12s  %-22s %s\n", o.model_path.c_str(),
              o.reference_dir.c_str(), "tensor", "op", "max |diff|", "differing", "name");
  for (const Row& row : rows) print_row(graph, row);
  return print_verdict(graph, rows);
}

}  // namespace microaot
