#include "driver/image_report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>

#include "driver/output_dir.h"
#include "support/diagnostics.h"
#include "support/process.h"

namespace microaot {

SectionSizes& SectionSizes::operator+=(const SectionSizes& o) {
  text += o.text;
  rodata += o.rodata;
  data += o.data;
  bss += o.bss;
  return *this;
}

namespace {
bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

SectionSizes parse_size_output(const std::string& text) {
  SectionSizes sizes;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string name;
    int64_t size = 0;
    if (!(fields >> name >> size) || name.empty() || name[0] != '.') continue;
    if (starts_with(name, ".text") || starts_with(name, ".vectors") || starts_with(name, ".ARM.ex")) {
      sizes.text += size;
    } else if (starts_with(name, ".rodata")) {
      sizes.rodata += size;
    } else if (starts_with(name, ".data")) {
      sizes.data += size;
    } else if (starts_with(name, ".bss")) {
      sizes.bss += size;
    }
  }
  return sizes;
}

SectionSizes section_sizes(const std::string& size_tool, const std::string& file) {
  TempDir tmp;
  const std::string out = tmp.path() + "/size.txt";
  if (run_process({size_tool, "-A", "-d", file}, "", out) != 0) {
    throw CompileError("'" + size_tool + " -A -d " + file + "' failed");
  }
  std::ifstream in(out);
  return parse_size_output({std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
}

namespace {
struct CallGraph {
  // Per file: functions defined there with their frame (-1 = dynamic), and call edges.
  struct File {
    std::map<std::string, int64_t> frames;
    std::multimap<std::string, std::string> calls;
  };
  std::vector<File> files;
  std::map<std::string, size_t> global;  // function -> the file defining it (first wins)
};

CallGraph parse_graphs(const std::vector<std::string>& texts) {
  static const std::regex node(R"re(node: \{ title: "([^"]+)" label: "[^"]*\\n(\d+) bytes \(([a-z,]+)\)")re");
  static const std::regex edge(R"re(edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)")re");
  CallGraph graph;
  for (const std::string& text : texts) {
    CallGraph::File file;
    std::istringstream in(text);
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
      if (std::regex_search(line, m, node)) {
        file.frames[m[1]] = m[3] == "dynamic" ? -1 : std::stoll(m[2]);
      } else if (std::regex_search(line, m, edge)) {
        file.calls.emplace(m[1], m[2]);
      }
    }
    for (const auto& f : file.frames) graph.global.emplace(f.first, graph.files.size());
    graph.files.push_back(std::move(file));
  }
  return graph;
}
}  // namespace

namespace {
constexpr const char* kIndirectCall = "__indirect_call";  // GCC's callee for a call through a pointer

// The node of function `name` (a static function's title is "FILE:name"): {file index, title}.
bool find_function(const CallGraph& graph, const std::string& name, std::pair<size_t, std::string>* found) {
  if (graph.global.count(name) != 0) {
    *found = {graph.global.at(name), name};
    return true;
  }
  for (const auto& [title, file] : graph.global) {
    if (title.size() > name.size() && title.compare(title.size() - name.size() - 1, std::string::npos, ":" + name) == 0) {
      *found = {file, title};
      return true;
    }
  }
  return false;
}
}  // namespace

StackBound static_stack_bound(const std::vector<std::string>& callgraph_texts, const std::string& root,
                              const std::vector<std::string>& indirect_targets,
                              const ExternalStackDepth& external_depth) {
  const CallGraph graph = parse_graphs(callgraph_texts);
  StackBound bound;
  std::map<std::pair<size_t, std::string>, int64_t> memo;  // -2 = on the current path
  std::function<int64_t(size_t, const std::string&)> depth;
  // The deepest of the functions a call through a pointer may reach; unbounded when they are not known. A
  // target on the current path is not one: the executor calls the step function through a pointer, the graph
  // executor's step the kernel entries through another, and none of them calls back.
  const auto indirect_depth = [&]() -> int64_t {
    int64_t deepest = -1;  // none reached: unbounded
    for (const std::string& target : indirect_targets) {
      std::pair<size_t, std::string> found;
      const bool known = find_function(graph, target, &found);
      const auto on_path = memo.find(found);
      if (known && on_path != memo.end() && on_path->second == -2) continue;
      const int64_t d = known ? depth(found.first, found.second) : -1;
      if (d < 0) return -1;
      deepest = std::max(deepest, d);
    }
    return deepest;
  };
  depth = [&](size_t file, const std::string& fn) -> int64_t {
    const auto key = std::make_pair(file, fn);
    const auto seen = memo.find(key);
    if (seen != memo.end()) return seen->second == -2 ? -1 : seen->second;  // recursion: unbounded
    const CallGraph::File& f = graph.files[file];
    const auto range = f.calls.equal_range(fn);
    int64_t frame = f.frames.at(fn);
    // GCC gives a naked function (its pushes in its assembly, e.g. the DSP depthwise's rows of pairs) no frame: a
    // leaf of 0 bytes takes its depth from the image's code where that is known.
    if (frame == 0 && range.first == range.second && external_depth) frame = std::max<int64_t>(0, external_depth(fn));
    if (frame < 0) return memo[key] = -1;
    memo[key] = -2;
    int64_t deepest = 0;  // every callee is visited, so that each unbounded external is listed
    for (auto it = range.first; it != range.second; ++it) {
      const std::string& callee = it->second;
      int64_t d = -1;
      if (f.frames.count(callee) != 0) {
        d = depth(file, callee);
      } else if (graph.global.count(callee) != 0) {
        d = depth(graph.global.at(callee), callee);
      } else if (callee == kIndirectCall) {
        d = indirect_depth();
      } else {
        if (external_depth) d = external_depth(callee);
        if (d < 0) bound.externals.insert(callee);
      }
      deepest = d < 0 || deepest < 0 ? -1 : std::max(deepest, d);
    }
    return memo[key] = deepest < 0 ? -1 : frame + deepest;
  };
  if (graph.global.count(root) != 0) bound.bytes = depth(graph.global.at(root), root);
  return bound;
}

}  // namespace microaot
