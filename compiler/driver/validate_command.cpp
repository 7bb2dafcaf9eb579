// `microaot validate`: compares a model's run on the host with per-layer goldens DIR/tN.bin (the layout of
// ../shared/models/NAME/vectors/K.tensors/). Two builds: the one the compile flags give (as it ships, fused
// bands under --ram-budget included) for the model's outputs, and the whole-layer build that keeps every
// intermediate (`run --dump-tensors`: linear planner, no bands, the same arithmetic) for every tensor an
// operator writes, in the model's operator order, so the first differing row is the first layer that departs.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/commands.h"
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

RunCommandOptions run_options(const ValidateCommandOptions& o, const std::string& output_dir) {
  RunCommandOptions run;
  run.base = o.base;
  run.inputs = o.inputs;
  run.output_dir = output_dir;
  run.cc = o.cc;
  run.cflags = o.cflags;
  run.keep_build = o.keep_build;
  run.quiet = true;
  return run;
}

// "fused bands 1-12/2, 13-15/4e; arena 35904 bytes" (first-last step/band rows, e: every layer paced).
std::string plan_text(const CompiledModel& model) {
  std::string text;
  for (const FusedChain& c : model.chains) {
    text += (text.empty() ? "fused bands " : ", ") + std::to_string(c.first_step) + "-" +
            std::to_string(c.last_step) + "/" + std::to_string(c.band_rows) +
            (c.pace == BandPace::kEveryLayer ? "e" : "");
  }
  return (text.empty() ? "whole layers" : text) + "; arena " + std::to_string(model.plan.arena_size) + " bytes";
}

// The build as it ships, into `dir`/shipped; returns what it ran ("the --ram-budget 40000 build (...)").
std::string run_shipped(const ValidateCommandOptions& o, const std::string& dir) {
  RunCommandOptions run = run_options(o, dir + "/shipped");
  std::string plan;
  run.on_compiled = [&plan](const CompiledModel& model) { plan = plan_text(model); };
  run_command(run);
  std::string flags;  // the flags that choose the plan and the kernels, when not their defaults
  if (!o.base.ram_budget.empty()) flags += " --ram-budget " + o.base.ram_budget;
  if (o.base.tiling != "auto") flags += " --tiling " + o.base.tiling;
  if (o.base.optimize != "speed") flags += " --optimize " + o.base.optimize;
  if (o.base.compile.executor != "aot") flags += " --executor " + o.base.compile.executor;
  return "the" + (flags.empty() ? std::string(" default") : flags) + " build (" + plan + ")";
}

// The whole-layer build with every intermediate kept, into `dir`/dump. It cannot honour a budget (run refuses
// --dump-tensors with --ram-budget); its arithmetic is the shipped build's, so the intermediates are the same.
void run_with_dumps(const ValidateCommandOptions& o, const std::string& dir) {
  RunCommandOptions run = run_options(o, dir + "/out");
  run.base.ram_budget.clear();
  run.base.compile.ram_budget = 0;
  run.dump_tensors_dir = dir + "/dump";
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

// One row per model output that has a reference file, from the shipped build's outputK.bin.
std::vector<Row> compare_outputs(const Graph& graph, const std::string& reference, const std::string& shipped) {
  std::vector<Row> rows;
  for (size_t k = 0; k < graph.outputs.size(); ++k) {
    const int id = graph.outputs[k];
    const std::string want = reference + "/t" + std::to_string(id) + ".bin";
    const std::string got = shipped + "/output" + std::to_string(k) + ".bin";
    if (!fs::is_regular_file(want)) continue;
    Row row{id, "output " + std::to_string(k), true, {}, graph.tensor(id).dtype};
    row.diff = compare_tensor_data(row.dtype, read_binary_file(got), read_binary_file(want));
    rows.push_back(row);
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

// The outputs' verdict line; returns 0 unless an output with a reference differs.
int print_outputs_verdict(const std::vector<Row>& rows) {
  size_t differing = 0;
  for (const Row& row : rows) differing += row.diff.matches() ? 0 : 1;
  if (rows.empty()) {
    std::printf("microaot: no model output has a reference tN.bin: the outputs of the build as it ships were not "
                "compared\n");
  } else if (differing == 0) {
    std::printf("microaot: the outputs of the build as it ships match the reference\n");
  } else {
    std::printf("microaot: %zu of %zu outputs of the build as it ships differ from the reference\n", differing,
                rows.size());
  }
  return differing == 0 ? 0 : 1;
}

void print_table(const Graph& graph, const std::vector<Row>& rows) {
  std::printf("  %6s  %-32s %12s  %-22s %s\n", "tensor", "op", "max |diff|", "differing", "name");
  for (const Row& row : rows) print_row(graph, row);
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
  throw CompileError("no tN.bin in '" + o.reference_dir + "' belongs to a tensor an operator of '" + o.base.model_path +
                     "' writes (N is the tensor's index in the .tflite)");
}
}  // namespace

int validate_command(ValidateCommandOptions& o) {
  resolve_compile_options(o.base);  // usage errors before any work
  if (!o.base.compile.target.is_generic()) {
    throw UsageError("validate builds and runs on the host, not --target " + o.base.target +
                     ": check a board's outputs with run --target or bench");
  }
  if (!fs::is_directory(o.reference_dir)) throw CompileError("--reference '" + o.reference_dir + "' is not a folder");
  if (!has_tensor_files(o.reference_dir)) refuse_reference(o);
  TempDir work;
  if (o.keep_build) work.keep();
  const std::string shipped = run_shipped(o, work.path());  // first: a budget it cannot meet stops here
  run_with_dumps(o, work.path());
  const Graph graph = read_model(read_binary_file(o.base.model_path), o.base.compile.custom_ops);
  const std::vector<Row> outputs = compare_outputs(graph, o.reference_dir, work.path() + "/shipped");
  const std::vector<Row> rows = compare_all(graph, o.reference_dir, work.path() + "/dump");
  if (rows.empty()) refuse_reference(o);
  std::printf("microaot validate: %s against %s\noutputs: %s\n", o.base.model_path.c_str(), o.reference_dir.c_str(),
              shipped.c_str());
  print_table(graph, outputs);
  std::printf("intermediates: the whole-layer build (every intermediate kept: linear planner, no fused bands; the "
              "same arithmetic)\n");
  print_table(graph, rows);
  const int outputs_status = print_outputs_verdict(outputs);
  return print_verdict(graph, rows) != 0 || outputs_status != 0 ? 1 : 0;
}

}  // namespace microaot
