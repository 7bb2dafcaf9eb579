#include "driver/mlf_archive.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "driver/output_marker.h"
#include "support/tar_archive.h"
#include "support/version.h"

namespace microaot {

namespace {
// Where each library file goes: the first rule whose folder and ending match; no destination = left out.
struct Placement {
  const char* folder;  // "kernels/" or "" (top level only)
  const char* ending;  // ".c", ".h", a whole name, or "" (anything)
  const char* destination;
};
constexpr Placement kLayout[] = {
    {"kernels/", ".c", "runtime/src/"},   {"kernels/", ".h", "runtime/include/"},
    {"", ".c", "codegen/host/src/"},      {"", ".h", "codegen/host/include/"},
    {"", "CMakeLists.txt", nullptr},      {"", ".mk", nullptr},
    {"", "", "reports/"},
};

bool ends_with(const std::string& text, const std::string& ending) {
  return text.size() >= ending.size() && text.compare(text.size() - ending.size(), ending.size(), ending) == 0;
}

// The archive path of a library file, or "" when it is left out.
std::string archive_path(const std::string& path) {
  for (const Placement& rule : kLayout) {
    const std::string folder = rule.folder;
    if (path.compare(0, folder.size(), folder) != 0 || !ends_with(path, rule.ending)) continue;
    const std::string rest = path.substr(folder.size());
    if (folder.empty() && rest.find('/') != std::string::npos) continue;
    return rule.destination == nullptr ? "" : rule.destination + rest;
  }
  return "";
}

// {name: {"dtype", "size"}} of graph inputs or outputs; unnamed or repeated names become inputN/outputN.
nlohmann::json io_entries(const Graph& graph, const std::vector<int>& ids, const std::string& kind) {
  nlohmann::json entries = nlohmann::json::object();
  for (size_t i = 0; i < ids.size(); ++i) {
    const Tensor& t = graph.tensor(ids[i]);
    const std::string name = t.name.empty() || entries.contains(t.name) ? kind + std::to_string(i) : t.name;
    entries[name] = {{"dtype", dtype_name(t.dtype)}, {"size", t.byte_size()}};
  }
  return entries;
}

int64_t io_bytes(const Graph& graph) {
  int64_t total = 0;
  for (const std::vector<int>* ids : {&graph.inputs, &graph.outputs}) {
    for (int id : *ids) total += graph.tensor(id).byte_size();
  }
  return total;
}

// tvmc's operator_functions: each kernel function with the largest scratch buffer one of its calls gets.
nlohmann::json operator_functions(const CompiledModel& model) {
  std::map<std::string, int64_t> scratch;
  for (size_t i = 0; i < model.calls.size(); ++i) {
    const int buffer = i < model.scratch_buffer.size() ? model.scratch_buffer[i] : -1;
    const int64_t bytes = buffer >= 0 ? model.buffers[static_cast<size_t>(buffer)].size : 0;
    const std::string function = model.calls[i].function();
    scratch[function] = std::max(scratch[function], bytes);
  }
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [function, bytes] : scratch) {
    list.push_back({{"function_name", function}, {"workspace", {{{"device", 1}, {"workspace_size_bytes", bytes}}}}});
  }
  return list;
}

// metadata.json, version 7 of the format: one module. Device 1 is the CPU (DLPack's kDLCPU). The
// workspace is the arena given to init (NAME_ARENA_SIZE); tvmc's export_datetime is left out so that the
// same model gives the same archive.
std::string metadata_json(const CompiledModel& model) {
  const std::string name = module_names(model).prefix;
  const nlohmann::json main = {{"device", 1},
                               {"workspace_size_bytes", arena_buffer_bytes(model)},
                               {"constants_size_bytes", weights_bytes(model)},
                               {"io_size_bytes", io_bytes(model.graph)},
                               {"inputs", io_entries(model.graph, model.graph.inputs, "input")},
                               {"outputs", io_entries(model.graph, model.graph.outputs, "output")}};
  nlohmann::json module = {
      {"model_name", name},
      {"executors", {"aot"}},
      {"style", "full-model"},
      {"target", {model.options.target.is_generic() ? "c" : "c -mcpu=" + model.options.target.cpu}},
      {"memory", {{"functions", {{"main", {main}}, {"operator_functions", operator_functions(model)}}}}},
      {"external_dependencies",
       {{{"short_name", "microaot_runtime"}, {"url", "./runtime"}, {"url_type", "mlf_path"},
         {"version_spec", MICROAOT_VERSION}}}}};
  return nlohmann::json({{"version", 7}, {"modules", {{name, module}}}}).dump(2) + "\n";
}

// tvmc names the microTVM interface header tvmgen_NAME.h; here that interface is part of NAME.h.
std::string tvmgen_header(const std::string& name) {
  return std::string(kGeneratedBanner) + "/* The microTVM interface (tvmgen_" + name + "_run) is declared in " + name +
         ".h. */\n#ifndef TVMGEN_" + name + "_H_\n#define TVMGEN_" + name + "_H_\n#include \"" + name +
         ".h\"\n#endif\n";
}
}  // namespace

FileSet mlf_files(const CompiledModel& model, const FileSet& library) {
  FileSet files;
  for (const auto& [path, contents] : library) {
    const std::string to = archive_path(path);
    if (!to.empty()) files[to] = contents;
  }
  files["metadata.json"] = metadata_json(model);
  const std::string name = module_names(model).prefix;
  if (model.options.interface_api_c) files["codegen/host/include/tvmgen_" + name + ".h"] = tvmgen_header(name);
  return files;
}

std::string mlf_tar(const FileSet& files) {
  std::set<std::string> folders;
  for (const auto& entry : files) {
    for (size_t slash = entry.first.find('/'); slash != std::string::npos; slash = entry.first.find('/', slash + 1)) {
      folders.insert(entry.first.substr(0, slash + 1));
    }
  }
  std::map<std::string, const std::string*> entries;  // path order puts a folder before what it holds
  for (const std::string& folder : folders) entries[folder] = nullptr;
  for (const auto& [path, contents] : files) entries[path] = &contents;
  TarWriter tar;
  tar.add_directory("./");
  const auto marker = files.find(kMarkerFile);  // first, so that is_microaot_archive finds it early
  if (marker != files.end()) {
    tar.add_file(std::string("./") + kMarkerFile, marker->second);
    entries.erase(kMarkerFile);
  }
  for (const auto& [path, contents] : entries) {
    if (contents == nullptr) tar.add_directory("./" + path);
    if (contents != nullptr) tar.add_file("./" + path, *contents);
  }
  return tar.finish();
}

bool is_microaot_archive(const std::string& path) {
  std::string head(1 << 20, '\0');  // the marker is near the start; the file may be anything, and large
  std::ifstream in(path, std::ios::binary);
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  for (const TarMember& member : read_tar(head)) {
    if (member.path == std::string("./") + kMarkerFile) return is_marker(member.contents);
  }
  return false;
}

}  // namespace microaot
