// No two of the project's own files include each other in a loop (issue 29): the sources and headers of
// runtime/include, runtime/kernels, runtime/executor and compiler/, with their quoted #include lines resolved as
// the builds resolve them (beside the file, then compiler/, then runtime/include). A loop fails the test naming
// its files in order; a fixture with a deliberate loop shows the check can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace microaot {
namespace {

namespace fs = std::filesystem;
using IncludeGraph = std::map<std::string, std::vector<std::string>>;  // file -> the project files it includes

bool is_source_or_header(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".h" || ext == ".c" || ext == ".cpp" || ext == ".def";
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The project file a quoted include names, or "" for a file outside the scanned tree (a system header).
std::string resolve(const fs::path& includer, const std::string& name, const std::vector<fs::path>& include_dirs) {
  std::vector<fs::path> candidates = {includer.parent_path() / name};
  for (const fs::path& dir : include_dirs) candidates.push_back(dir / name);
  for (const fs::path& candidate : candidates) {
    if (fs::is_regular_file(candidate)) return fs::weakly_canonical(candidate).string();
  }
  return "";
}

// Every file below `roots` and the files its quoted #include lines name, each path relative to `base`.
IncludeGraph scan(const fs::path& base, const std::vector<fs::path>& roots, const std::vector<fs::path>& include_dirs) {
  static const std::regex include_line(R"re(^\s*#\s*include\s*"([^"]+)")re");
  const std::string prefix = fs::weakly_canonical(base).string() + "/";
  auto relative = [&](const std::string& path) { return path.substr(path.rfind(prefix, 0) == 0 ? prefix.size() : 0); };
  IncludeGraph graph;
  for (const fs::path& root : roots) {
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file() || !is_source_or_header(entry.path())) continue;
      std::vector<std::string>& edges = graph[relative(fs::weakly_canonical(entry.path()).string())];
      std::istringstream lines(read_text(entry.path()));
      std::smatch match;
      for (std::string line; std::getline(lines, line);) {
        if (!std::regex_search(line, match, include_line)) continue;
        const std::string target = resolve(entry.path(), match[1].str(), include_dirs);
        if (!target.empty()) edges.push_back(relative(target));
      }
    }
  }
  return graph;
}

// The first include loop found, as "a.h -> b.h -> a.h", or "" when there is none.
std::string find_cycle(const IncludeGraph& graph) {
  std::map<std::string, int> state;  // 0 unvisited, 1 on the current path, 2 done
  std::vector<std::string> path;
  std::string cycle;
  std::function<bool(const std::string&)> visit = [&](const std::string& file) {
    state[file] = 1;
    path.push_back(file);
    const auto found = graph.find(file);
    for (const std::string& next : found != graph.end() ? found->second : std::vector<std::string>{}) {
      if (state[next] == 1) {
        auto at = std::find(path.begin(), path.end(), next);
        for (; at != path.end(); ++at) cycle += *at + " -> ";
        cycle += next;
        return true;
      }
      if (state[next] == 0 && visit(next)) return true;
    }
    path.pop_back();
    state[file] = 2;
    return false;
  };
  for (const auto& entry : graph) {
    if (state[entry.first] == 0 && visit(entry.first)) return cycle;
  }
  return "";
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

TEST(IncludeCycles, TheProjectHasNone) {
  const fs::path root = fs::path(MICROAOT_RUNTIME_DIR) / "..";
  const IncludeGraph graph = scan(root,
                                  {root / "runtime/include", root / "runtime/kernels", root / "runtime/executor",
                                   root / "compiler"},
                                  {root / "compiler", root / "runtime/include"});
  ASSERT_GT(graph.size(), 500u);  // the scan reached the tree
  EXPECT_EQ(find_cycle(graph), "") << "an include loop";
}

// A fixture tree with a loop through a folder and the include path: the check names it in order.
TEST(IncludeCycles, NamesADeliberateLoop) {
  const fs::path dir = fs::temp_directory_path() / ("microaot_include_cycles_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  write(dir / "include/lib/a.h", "#include <stdint.h>\n#include \"lib/b.h\"\n");
  write(dir / "include/lib/b.h", "#include \"detail/c.h\"\n");
  write(dir / "include/lib/detail/c.h", "  #  include \"../a.h\"\n");
  write(dir / "src/user.c", "#include \"lib/a.h\"\n#include \"missing.h\"\n");
  const IncludeGraph graph = scan(dir, {dir / "include", dir / "src"}, {dir / "include"});
  EXPECT_EQ(find_cycle(graph), "include/lib/a.h -> include/lib/b.h -> include/lib/detail/c.h -> include/lib/a.h");
  write(dir / "include/lib/detail/c.h", "/* no loop: #include \"../a.h\" in a comment is not a line's include */\n");
  EXPECT_EQ(find_cycle(scan(dir, {dir / "include", dir / "src"}, {dir / "include"})), "");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace microaot
