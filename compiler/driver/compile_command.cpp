// `microaot compile`: one model to a library folder (or an MLF archive), or several models to one folder
// with a shared arena. The output is written whole or not at all, and never over a user's files.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>

#include "codegen/emit.h"
#include "codegen/graph_blob.h"
#include "driver/blob_firmware.h"
#include "driver/cluster_measure.h"
#include "driver/commands.h"
#include "driver/mlf_archive.h"
#include "driver/output_dir.h"
#include "driver/output_marker.h"
#include "frontend/foreign_model.h"
#include "microaot/graph.h"
#include "support/diagnostics.h"
#include "support/sha256.h"
#include "support/version.h"

namespace microaot {

std::vector<uint8_t> read_binary_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    const std::string foreign = describe_foreign_folder(path);
    throw CompileError("cannot read '" + path + "': " + (foreign.empty() ? "not a file" : "it is " + foreign));
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw CompileError("cannot read '" + path + "'");
  return bytes;
}

namespace {
void print_planner_table(const CompiledModel& model) {
  std::printf("%-20s %12s\n", "planner", "arena bytes");
  for (const MemoryPlan& plan : model.planner_results) {
    std::printf("%-20s %12lld%s%s\n", plan.planner.c_str(), static_cast<long long>(plan.arena_size),
                plan.proven_optimal ? "  proven optimal" : "", plan.planner == model.plan.planner ? "  <- chosen" : "");
  }
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::string current;
  for (char c : text + ",") {
    if (c == ',') {
      names.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  return names;
}

// Module names for `compile a.tflite b.tflite`: --module-name a,b, else the file stems (made unique).
std::vector<std::string> module_names_for(const CompileCommandOptions& options, const std::vector<std::string>& paths) {
  if (options.compile.module_name != "model") {
    std::vector<std::string> names = split_names(options.compile.module_name);
    if (names.size() != paths.size()) {
      throw UsageError("--module-name lists " + std::to_string(names.size()) + " names for " +
                         std::to_string(paths.size()) + " models");
    }
    return names;
  }
  std::vector<std::string> names;
  for (const std::string& path : paths) {
    std::string stem = std::filesystem::path(path).stem().string();
    for (char& c : stem) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem[0]))) stem = "model_" + stem;
    names.push_back(stem);
  }
  // The first of several files with one stem keeps it, the next ones get _2, _3, ... in command-line order.
  std::map<std::string, int> seen;
  for (std::string& name : names) {
    const int n = ++seen[name];
    if (n > 1) name += "_" + std::to_string(n);
  }
  return names;
}

// The output as asked: a folder with the marker, or (--output-format=mlf) one archive. Prints where the
// previous contents went when --force moved them aside.
void write_output(const CompileOutputOptions& output, const CompiledModel* single, const FileSet& library,
                  const std::vector<ModelStamp>& stamps, const std::vector<std::string>& inputs) {
  const OutputPolicy policy{output.force, inputs};
  if (output.format != "mlf") return report_backup(output.path, write_marked_dir(output.path, library, stamps, policy));
  FileSet files = mlf_files(*single, library);
  files[kMarkerFile] = marker_json(stamps, files);
  report_backup(output.path, write_output_file(output.path, mlf_tar(files), policy, is_microaot_archive));
}

// A file microaot may replace without --force: a model blob (it starts with the blob's magic).
bool is_model_blob(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  uint8_t magic[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char*>(magic), sizeof magic);
  const uint32_t word = magic[0] | (magic[1] << 8) | (magic[2] << 16) | (static_cast<uint32_t>(magic[3]) << 24);
  return in.gcount() == 4 && word == MICROAOT_BLOB_MAGIC;
}

int write_blob(const CompileOutputOptions& output, const CompiledModel& model, const std::string& model_path) {
  const GraphBlob blob = build_graph_blob(model);
  const std::string backup = write_output_file(output.path, std::string(blob.bytes.begin(), blob.bytes.end()),
                                               {output.force, {model_path}}, is_model_blob);
  report_backup(output.path, backup);
  std::printf("microaot: %s -> %s: blob %zu bytes (description %lld, constants %lld), arena %lld bytes\n",
              model_path.c_str(), output.path.c_str(), blob.bytes.size(), static_cast<long long>(blob.description_bytes),
              static_cast<long long>(blob.constants_bytes), static_cast<long long>(arena_buffer_bytes(model)));
  return 0;
}

void check_output_options(const CompileCommandOptions& options, const CompileOutputOptions& output) {
  if (output.format != "dir" && output.format != "mlf") {
    throw UsageError("--output-format '" + output.format + "' is not supported (dir, the default, or mlf)");
  }
  if (!options.custom_ops.empty() && (output.format == "mlf" || !options.more_model_paths.empty())) {
    throw UsageError("--custom-op takes one model and a folder output (--output-format=dir)");
  }
  if (options.compile.executor == "graph" && output.format == "mlf") {
    throw UsageError("--output-format=mlf describes an AOT library: use --executor aot, or a folder");
  }
  if (output.blob_only && (options.compile.executor != "graph" || output.format != "dir" ||
                           !options.more_model_paths.empty())) {
    throw UsageError("--blob-only writes one model's blob: it takes --executor graph, one model, no --output-format");
  }
  if (output.blob_only && !options.compile.link_kernels.empty()) {
    throw UsageError("--link-kernels chooses what a firmware links; a blob carries no code: give it when "
                     "compiling the firmware folder, and build blobs for that firmware with --for FIRMWARE_DIR");
  }
  if (!output.for_firmware.empty() && !output.blob_only) {
    throw UsageError("--for FIRMWARE_DIR builds a blob for that firmware: it takes --blob-only");
  }
  if (output.format == "mlf" && !options.more_model_paths.empty()) {
    throw UsageError("--output-format=mlf takes one model; compile several models into a folder");
  }
}

// The options with what NAME.h and report.json record of where the code came from.
CompileOptions with_provenance(CompileOptions options, const std::vector<uint8_t>& model_bytes) {
  options.microaot_version = MICROAOT_VERSION;
  options.model_sha256 = sha256_hex(model_bytes);
  return options;
}

int compile_many(CompileCommandOptions& options, const CompileOutputOptions& output) {
  std::vector<std::string> paths = {options.model_path};
  paths.insert(paths.end(), options.more_model_paths.begin(), options.more_model_paths.end());
  const std::vector<std::string> names = module_names_for(options, paths);
  std::vector<CompileCommandOptions> each;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (std::count(names.begin(), names.end(), names[i]) > 1) {
      throw UsageError("--module-name '" + names[i] + "' is given twice");
    }
    CompileCommandOptions& one = each.emplace_back(options);
    one.model_path = paths[i];
    one.compile.module_name = names[i];
    resolve_compile_options(one);
    one.compile.shared_arena = kSharedArenaSymbol;
  }
  std::vector<CompiledModel> models;
  std::vector<ModelStamp> stamps;
  for (const CompileCommandOptions& one : each) {
    const std::vector<uint8_t> bytes = read_binary_file(one.model_path);
    models.push_back(compile_model(bytes, with_provenance(one.compile, bytes)));
    stamps.push_back({one.compile.source_name, models.back().options.model_sha256});
  }
  write_output(output, nullptr, emit_shared_library(models), stamps, paths);
  int64_t arena = 0;
  for (const CompiledModel& model : models) {
    std::printf("microaot: %s -> %s/%s: %zu ops, arena %lld bytes (header included)\n",
                model.options.source_name.c_str(), output.path.c_str(), module_names(model).prefix.c_str(),
                model.calls.size(), static_cast<long long>(arena_buffer_bytes(model)));
    arena = std::max(arena, arena_buffer_bytes(model));
  }
  std::printf("microaot: shared arena %lld bytes (headers included)\n", static_cast<long long>(arena));
  return 0;
}

// --cluster-weights, lossy: the rewritten model beside the code, and said so; with --calibration its error
// report, measured on the host.
void add_clustered_files(const CompileCommandOptions& options, const std::vector<uint8_t>& original,
                         const CompiledModel& model, FileSet& library) {
  const std::string name = module_names(model).prefix + "_clustered";
  library.emplace(name + ".tflite", std::string(model.clustered.tflite.begin(), model.clustered.tflite.end()));
  std::printf("microaot: %s", clustered_weights_text(model.clustered, model.options.cluster_values).c_str());
  if (options.calibration.empty()) {
    std::printf("microaot: --calibration SAMPLES measures each layer's output error against the unclustered model\n");
    return;
  }
  const ClusterReport report = measure_clustering(options, original, model, name + ".tflite");
  library.emplace(name + ".report.txt", cluster_report_text(report));
  library.emplace(name + ".report.json", cluster_report_json(report));
  for (const OutputError& e : report.outputs) std::printf("microaot: clustered %s\n", output_summary(e).c_str());
}
}  // namespace

int compile_command(CompileCommandOptions& options, const CompileOutputOptions& output) {
  check_output_options(options, output);
  if (!options.calibration.empty() && options.compile.cluster_values == 0) {
    throw UsageError("--calibration goes with --quantize (the samples to quantize with) or --cluster-weights (the "
                     "samples its error report is measured on)");
  }
  if (!options.more_model_paths.empty()) return compile_many(options, output);
  return compile_model_bytes(options, output, read_binary_file(options.model_path), {});
}

int compile_model_bytes(CompileCommandOptions& options, const CompileOutputOptions& output,
                        const std::vector<uint8_t>& bytes, const FileSet& extra) {
  check_output_options(options, output);
  std::optional<FirmwareFolder> firmware;
  if (!output.for_firmware.empty()) {
    firmware = read_firmware_folder(output.for_firmware);
    take_firmware_settings(options, *firmware);
  }
  resolve_compile_options(options);
  const auto start = std::chrono::steady_clock::now();
  const CompiledModel model = compile_model(bytes, with_provenance(options.compile, bytes));
  if (firmware) check_model_fits_firmware(model, *firmware);
  if (output.blob_only) return write_blob(output, model, options.model_path);
  FileSet library = emit_library(model);
  if (model.options.cluster_values > 0) add_clustered_files(options, bytes, model, library);
  for (const auto& [path, contents] : extra) {
    if (!library.emplace(path, contents).second) throw CompileError("'" + path + "' is a file of the library itself");
  }
  write_output(output, &model, library, {{options.compile.source_name, model.options.model_sha256}},
               {options.model_path});
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  if (options.planner_table) print_planner_table(model);
  // The arena figure is MODEL_ARENA_SIZE, header included: the bytes the user provides and --ram-budget counts.
  std::printf("microaot: %s -> %s: %zu ops, arena %lld bytes (MODEL_ARENA_SIZE), weights %lld bytes (%lld ms)\n",
              options.model_path.c_str(), output.path.c_str(), model.calls.size(),
              static_cast<long long>(arena_buffer_bytes(model)), static_cast<long long>(weights_bytes(model)),
              static_cast<long long>(ms.count()));
  return 0;
}

}  // namespace microaot
