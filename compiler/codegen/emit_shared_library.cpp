// `microaot compile a.tflite b.tflite -o OUT`: the models' libraries merged into one folder and one
// static library, sharing kernels, platform hooks and a single arena.
#include <algorithm>
#include <set>
#include <sstream>

#include "codegen/emit.h"
#include "codegen/source_levels.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
bool is_shared_file(const std::string& path) {
  return path.rfind("kernels/", 0) == 0 || path == "platform.h" || path == "platform.c";
}

bool is_build_file(const std::string& path, const std::string& prefix) {
  return path == "CMakeLists.txt" || path == prefix + ".mk";
}

std::string shared_arena_header(int64_t size, int64_t alignment) {
  std::ostringstream out;
  out << kGeneratedBanner << "#ifndef MICROAOT_SHARED_ARENA_H\n#define MICROAOT_SHARED_ARENA_H\n\n#include <stdint.h>\n\n"
      << "/* One arena for every model of this folder, sized for the largest (its header included). The models\n"
      << " * take turns: a model whose data another one overwrote gets MICROAOT_STATUS_ARENA_CLOBBERED instead of\n"
      << " * a result (NAME.h says when), so write its inputs again before running it. */\n"
      << "#define MICROAOT_SHARED_ARENA_SIZE " << size << "u\n#define MICROAOT_SHARED_ARENA_ALIGN " << alignment
      << "u\nextern uint8_t " << kSharedArenaSymbol << "[];\n\n#endif /* MICROAOT_SHARED_ARENA_H */\n";
  return out.str();
}

std::string shared_arena_source() {
  std::ostringstream out;
  out << kGeneratedBanner << "#include \"shared_arena.h\"\n\n"
      << "/* Define MICROAOT_SHARED_ARENA_SECTION (e.g. __attribute__((section(\".sram2\")))) to place it. */\n"
      << "#ifndef MICROAOT_SHARED_ARENA_SECTION\n#define MICROAOT_SHARED_ARENA_SECTION\n#endif\n"
      << "#if defined(__GNUC__) || defined(__clang__)\n"
      << "uint8_t " << kSharedArenaSymbol
      << "[MICROAOT_SHARED_ARENA_SIZE] __attribute__((aligned(MICROAOT_SHARED_ARENA_ALIGN))) "
         "MICROAOT_SHARED_ARENA_SECTION;\n"
      << "#else\nuint8_t " << kSharedArenaSymbol << "[MICROAOT_SHARED_ARENA_SIZE];\n#endif\n";
  return out.str();
}

}  // namespace

FileSet emit_shared_library(const std::vector<CompiledModel>& models) {
  MICROAOT_CHECK(!models.empty(), "emit_shared_library needs at least one model");
  FileSet files;
  BuildFiles build{"microaot_models", "MICROAOT_MODELS", {}, {}, "shared_arena.c", {"", "kernels"}, {}, false, {}, {}};
  int64_t arena = 0;
  int64_t alignment = 1;
  for (const CompiledModel& model : models) {
    MICROAOT_CHECK(model.options.shared_arena == kSharedArenaSymbol, "model not compiled for a shared arena");
    const ModuleNames names = module_names(model);
    build.include_dirs.push_back(names.prefix);
    build.no_static_arena.push_back(names.macro + "_NO_STATIC_ARENA");
    build.optimize_size = model.options.target.optimize_size;  // one command line: the same for every model
    const SourceLevels levels = source_levels(model);
    for (const std::string& path : levels.size) {  // the model's own NAME.c lies in its subfolder here
      build.size_sources.insert(is_shared_file(path) ? path : names.prefix + "/" + path);
    }
    build.speed_sources.insert(levels.speed.begin(), levels.speed.end());
    arena = std::max(arena, arena_buffer_bytes(model));
    alignment = std::max(alignment, model.options.alignment);
    for (const auto& file : emit_library(model)) {
      if (is_build_file(file.first, names.prefix)) continue;
      const std::string path = is_shared_file(file.first) ? file.first : names.prefix + "/" + file.first;
      const auto existing = files.find(path);
      MICROAOT_CHECK(existing == files.end() || existing->second == file.second,
                     "two models emit different contents for " + path);
      files[path] = file.second;
    }
  }
  for (const auto& file : files) {
    const std::string& path = file.first;
    if (path.size() < 2 || path.compare(path.size() - 2, 2, ".c") != 0) continue;
    (is_shared_file(path) ? build.runtime_sources : build.own_sources).push_back(path);
  }
  for (const std::string& fast : build.speed_sources) build.size_sources.erase(fast);  // any model's layers need it fast
  files["shared_arena.h"] = shared_arena_header(arena, alignment);
  files["shared_arena.c"] = shared_arena_source();
  files["CMakeLists.txt"] = emit_cmake_lists(build);
  files["microaot_models.mk"] = emit_makefile_fragment(build);
  return files;
}

}  // namespace microaot
