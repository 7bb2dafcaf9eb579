#include "driver/cortex_m.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "codegen/emit.h"
#include "codegen/runtime_files.h"
#include "codegen/source_levels.h"
#include "driver/kernel_sources.h"
#include "driver/output_dir.h"
#include "support/diagnostics.h"
#include "support/process.h"
#include "target/target.h"

namespace fs = std::filesystem;

namespace microaot {

extern const EmbeddedFile kTargetFiles[];  // targets/ embedded by embed_files.cmake

namespace {
// MPS2 boards count with CMSDK APB timer 0 at SYSCLK; the AN547's SSE-300 has no CMSDK timer at full
// speed, so its harness uses SysTick. The harness checks the count (a 20001-instruction call, a sweep).
const std::vector<CortexMBoard>& boards() {
  static const std::vector<CortexMBoard> kBoards = {
      {"cortex-m3", "mps2-an385", "mps2.ld", {"-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"},
       {"-DBENCH_CLOCK_CMSDK_BASE=0x40000000u", "-DBENCH_CLOCK_HZ=25000000"}},
      {"cortex-m4", "mps2-an386", "mps2.ld",
       {"-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"},
       {"-DBENCH_CLOCK_CMSDK_BASE=0x40000000u", "-DBENCH_CLOCK_HZ=25000000"}},
      {"cortex-m7", "mps2-an500", "mps2.ld", {"-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16"},
       {"-DBENCH_CLOCK_CMSDK_BASE=0x40000000u", "-DBENCH_CLOCK_HZ=25000000"}},
      {"cortex-m33", "mps2-an505", "mps2_an505.ld",
       {"-mcpu=cortex-m33", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-sp-d16"},
       {"-DBENCH_CLOCK_CMSDK_BASE=0x50000000u", "-DBENCH_CLOCK_HZ=20000000"}},
      {"cortex-m55", "mps3-an547", "mps3_an547.ld", {"-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"},
       {"-DBENCH_CLOCK_SYSTICK", "-DBENCH_CLOCK_HZ=32000000"}},
  };
  return kBoards;
}

constexpr int64_t kClockCheckInstructions = 20001;  // harness.c's call_spin: a count set, then 10000 x 2

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

// Runs a build tool; a missing tool gets the package to install.
void run_tool(const std::vector<std::string>& argv, const std::string& what) {
  const int status = run_process(argv);
  if (status == 0) return;
  if (status == -1 && !fs::exists(argv[0])) {
    throw CompileError("cannot run '" + argv[0] + "': install gcc-arm-none-eabi, libnewlib-arm-none-eabi and "
                       "qemu-system-arm (scripts/setup.sh does)");
  }
  throw CompileError(what + " failed (exit status " + std::to_string(status) + ")");
}

FileSet target_files() {
  FileSet files;
  const std::string prefix = "cortex-m/";
  for (const EmbeddedFile* f = kTargetFiles; f->path != nullptr; ++f) {
    const std::string path = f->path;
    if (path.rfind(prefix, 0) == 0) {
      files[path.substr(prefix.size())] = std::string(reinterpret_cast<const char*>(f->data), f->size);
    }
  }
  MICROAOT_CHECK(!files.empty(), "the Cortex-M harness is not embedded");
  return files;
}

// `optimize`: the setting's -O flag (--optimize size builds with -Os).
std::vector<std::string> c_flags(const CortexMBoard& board, const BuildTools& tools, const char* optimize) {
  std::vector<std::string> flags = board.cpu_flags;
  for (const char* f : {"-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"}) flags.push_back(f);
  flags.push_back(optimize);
  for (const std::string& f : split_flags(tools.cflags)) flags.push_back(f);
  return flags;
}

std::string compile(const BuildTools& tools, std::vector<std::string> argv, const std::string& source,
                    const std::string& object) {
  fs::create_directories(fs::path(object).parent_path());
  argv.insert(argv.begin(), tools.cc);
  argv.insert(argv.end(), {"-c", source, "-o", object});
  run_tool(argv, "the Arm C compiler on " + fs::path(source).filename().string());
  return object;
}

int64_t parse_value(const std::string& value, const std::string& key) {
  try {
    return std::stoll(value);
  } catch (const std::exception&) {
    throw CompileError("the harness wrote a bad results.txt line '" + key + " " + value + "'");
  }
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string read_text(const std::string& path) {
  const std::vector<uint8_t> bytes = read_bytes(path);
  return std::string(bytes.begin(), bytes.end());
}

// The profiled image's per-step lines: "op_step S" then "op_instructions N", a set's steps before its "set" line.
struct StepLines {
  std::optional<int> step;          // waiting for its instructions
  std::vector<BoardRun::Op> ops;    // of the set being run

  void read(const std::string& key, int64_t value) {
    if (key == "op_step" && !step) {
      step = static_cast<int>(value);
    } else if (key == "op_instructions" && step) {
      ops.push_back({*std::exchange(step, std::nullopt), value});
    } else if (key == "op_step" || key == "op_instructions" || (key == "set" && step)) {
      mismatch();
    }
  }
  std::vector<BoardRun::Op> take() { return std::exchange(ops, {}); }
  static void mismatch() { throw CompileError("results.txt: op_step and op_instructions lines do not pair up"); }
};

constexpr const char* kHarnessSources[] = {"startup.c", "semihost.c", "bench.c", "harness.c"};

// Compiling and linking an image from the library and harness sources written under `dir` (lib/, target/).
// Objects built with extra flags (the profiled image's -DMICROAOT_PROFILE) go to obj-profile/.
struct ImageBuild {
  ImageBuild(const CompiledModel& model, const CortexMBoard& board, const BuildTools& tools, const std::string& dir)
      : board(board), tools(tools), lib(dir + "/lib"), target(dir + "/target"), obj(dir + "/obj"),
        names(module_names(model)), optimize(optimize_c_flag(model.options.target)),
        size_sources(source_levels(model).size) {}

  // As the folder's build files build it: the sources built for size with -Os.
  std::string library_object(const std::string& source, const std::vector<std::string>& extra) const {
    std::vector<std::string> flags = c_flags(board, tools, size_sources.count(source) != 0 ? "-Os" : optimize);
    flags.insert(flags.end(), {"-fstack-usage", "-fcallgraph-info=su", "-I" + lib, "-I" + lib + "/kernels"});
    flags.insert(flags.end(), extra.begin(), extra.end());
    return compile(tools, flags, lib + "/" + source, object_dir(extra) + "/lib/" + stem(source) + ".o");
  }
  // The source (relative to lib/) an object of library_object was built from.
  std::string library_source_of(const std::string& object) const {
    return fs::path(object).lexically_relative(obj + "/lib").replace_extension(".c").string();
  }
  std::string harness_object(const std::string& source, const std::vector<std::string>& extra) const {
    std::vector<std::string> flags = c_flags(board, tools, optimize);
    flags.insert(flags.end(), {"-I" + lib, "-I" + lib + "/kernels"});
    flags.insert(flags.end(), board.clock_flags.begin(), board.clock_flags.end());
    flags.insert(flags.end(), {"-DHARNESS_MODEL_HEADER=\"" + names.prefix + ".h\"",
                               "-DHARNESS_PREFIX=" + names.prefix + "_", "-DHARNESS_MACRO=" + names.macro + "_"});
    flags.insert(flags.end(), extra.begin(), extra.end());
    return compile(tools, flags, target + "/" + source, object_dir(extra) + "/target/" + stem(source) + ".o");
  }
  void link(const CortexMImage& image) const {
    std::vector<std::string> argv = {tools.cc};
    argv.insert(argv.end(), board.cpu_flags.begin(), board.cpu_flags.end());
    argv.insert(argv.end(), {"-nostartfiles", "--specs=nano.specs", "-T", target + "/" + board.linker_script,
                             "-L" + target, "-Wl,--no-warn-rwx-segments"});
    argv.insert(argv.end(), image.model_objects.begin(), image.model_objects.end());
    argv.insert(argv.end(), image.harness_objects.begin(), image.harness_objects.end());
    argv.insert(argv.end(), {"-lm", "-o", image.elf});
    fs::create_directories(image.dir);
    run_tool(argv, "linking the " + board.cpu + " image");
  }

  const CortexMBoard& board;
  const BuildTools& tools;
  const std::string lib, target, obj;
  const ModuleNames names;
  const char* const optimize;
  const std::set<std::string> size_sources;

 private:
  static std::string stem(const std::string& source) { return source.substr(0, source.size() - 2); }
  std::string object_dir(const std::vector<std::string>& extra) const { return extra.empty() ? obj : obj + "-profile"; }
};
}  // namespace

BoardRun parse_board_results(const std::string& text) {
  std::istringstream in(text);
  BoardRun run;
  bool done = false;
  int64_t clock_check = -1, sweep_errors = -1;
  StepLines steps;
  for (std::string key, value; in >> key >> value;) {
    const int64_t v = parse_value(value, key);
    steps.read(key, v);
    if (key == "clock_check") clock_check = v;
    if (key == "clock_sweep_errors") sweep_errors = v;
    if (key == "clock_sweep_left_out" && v == 1) sweep_errors = 0;  // --no-sweep: the execution log checks instead
    if (key == "init_instructions") run.init_instructions = v;
    if (key == "init_stack_bytes") run.init_stack_bytes = v;
    if (key == "op_hook_instructions") run.op_hook_instructions = v;
    if (key == "set") run.sets.emplace_back().ops = steps.take();
    if (key == "instructions" && !run.sets.empty()) run.sets.back().instructions = v;
    if (key == "stack_bytes" && !run.sets.empty()) run.sets.back().stack_bytes = v;
    if (key == "done") done = true;
  }
  if (!done) throw CompileError("the harness did not finish (see its message above)");
  if (steps.step || !steps.ops.empty()) StepLines::mismatch();
  if (clock_check != kClockCheckInstructions || sweep_errors != 0) {
    throw CompileError("instruction counting is off: a " + std::to_string(kClockCheckInstructions) +
                       "-instruction call measured " + std::to_string(clock_check) + ", " +
                       std::to_string(sweep_errors) + " of the nop sweep's calls not exact" +
                       " (QEMU must run with -icount shift=0)");
  }
  return run;
}

const CortexMBoard& cortex_m_board(const std::string& cpu) {
  std::string known;
  for (const CortexMBoard& b : boards()) {
    if (b.cpu == cpu) return b;
    known += (known.empty() ? "" : ", ") + b.cpu + " (" + b.machine + ")";
  }
  throw UsageError("no QEMU board for '" + cpu + "': run and bench support " + known);
}

std::string cross_tool(const std::string& cc, const std::string& tool) {
  const std::string gcc = "gcc";
  if (ends_with(cc, gcc)) return cc.substr(0, cc.size() - gcc.size()) + tool;
  return "arm-none-eabi-" + tool;
}

CortexMImage build_cortex_m_image(const CompiledModel& model, const CortexMBoard& board, const BuildTools& tools,
                                  const std::string& dir) {
  FileSet library = emit_library(model);
  replace_kernel_sources(library, tools.kernel_sources);
  library.insert(tools.custom_sources.begin(), tools.custom_sources.end());
  const ImageBuild build(model, board, tools, dir);
  write_output_dir(build.lib, library);
  write_output_dir(build.target, target_files());

  CortexMImage image;
  image.dir = dir;
  image.elf = dir + "/model.elf";
  for (const auto& entry : library) {
    if (!ends_with(entry.first, ".c")) continue;
    image.model_objects.push_back(build.library_object(entry.first, {}));
    if (entry.first == "weights.c") image.weights_object = image.model_objects.back();
  }
  MICROAOT_CHECK(!image.weights_object.empty(), "the library has no weights.c");
  for (const char* source : kHarnessSources) image.harness_objects.push_back(build.harness_object(source, {}));
  build.link(image);
  return image;
}

namespace {
// Whether a source tests MICROAOT_PROFILE, in its text or in a header beside it that it includes
// ("executor_core.h" for executor.c and executor_arena.c): the profiled image rebuilds it.
bool mentions_profile_hooks(const std::string& path) {
  const std::string text = read_text(path), include = "#include \"";
  if (text.find("MICROAOT_PROFILE") != std::string::npos) return true;
  for (size_t at = text.find(include); at != std::string::npos; at = text.find(include, at + 1)) {
    const size_t start = at + include.size();
    const fs::path beside = fs::path(path).parent_path() / text.substr(start, text.find('"', start) - start);
    if (fs::exists(beside) && read_text(beside.string()).find("MICROAOT_PROFILE") != std::string::npos) return true;
  }
  return false;
}
}  // namespace

CortexMImage build_profiled_image(const CompiledModel& model, const CortexMBoard& board, const BuildTools& tools,
                                  const CortexMImage& plain) {
  const ImageBuild build(model, board, tools, plain.dir);
  CortexMImage image = plain;
  image.dir = plain.dir + "/profile";
  image.elf = image.dir + "/model.elf";
  const std::vector<std::string> profile = {"-DMICROAOT_PROFILE"};
  const auto tests_profile = [](const std::string& path) { return mentions_profile_hooks(path); };
  for (std::string& object : image.model_objects) {
    const std::string source = build.library_source_of(object);
    if (tests_profile(build.lib + "/" + source)) object = build.library_object(source, profile);
  }
  for (std::string& object : image.harness_objects) {
    const std::string source = fs::path(object).stem().string() + ".c";
    if (tests_profile(build.target + "/" + source)) object = build.harness_object(source, profile);
  }
  build.link(image);
  return image;
}

BoardRun run_cortex_m_image(const CortexMBoard& board, const CortexMImage& image, const std::vector<uint8_t>& inputs,
                            const std::string& exec_log) {
  {
    std::ofstream out(image.dir + "/inputs.bin", std::ios::binary);
    out.write(reinterpret_cast<const char*>(inputs.data()), static_cast<std::streamsize>(inputs.size()));
    if (!out) throw CompileError("cannot write " + image.dir + "/inputs.bin");
  }
  std::string dir_arg;  // QEMU option values escape ',' as ",,"
  for (char c : image.dir) dir_arg += c == ',' ? std::string(",,") : std::string(1, c);
  const std::string timeout = env_or("MICROAOT_QEMU_TIMEOUT", "600");
  std::vector<std::string> argv = {
      "timeout", "--kill-after=5", timeout, env_or("MICROAOT_QEMU", "qemu-system-arm"), "-M", board.machine,
      "-nographic", "-monitor", "none", "-serial", "none", "-icount", "shift=0,align=off,sleep=off",
      "-semihosting-config",
      "enable=on,target=native,arg=model.elf," + std::string(exec_log.empty() ? "" : "arg=--no-sweep,") + "arg=" + dir_arg,
      "-kernel", image.elf};
  // With the execution log, the harness leaves out its nop sweep: bench --cycles checks every count against
  // the log (bench_cycles.cpp), and the sweep's timer reads would make the log ten times longer.
  if (!exec_log.empty()) argv.insert(argv.end(), {"-d", "in_asm,exec,nochain", "-D", exec_log});
  const int status = run_process(argv);
  if (status == 124 || status == 137) {
    throw CompileError("QEMU (" + board.machine + ") did not finish within " + timeout +
                       " s (MICROAOT_QEMU_TIMEOUT sets the limit)");
  }
  if (status == 127 || status == -1) {
    throw CompileError("cannot run '" + argv[3] + "': install qemu-system-arm (scripts/setup.sh does)");
  }
  if (status != 0) {
    throw CompileError("the model failed on " + board.cpu + " (QEMU " + board.machine + ", exit status " +
                       std::to_string(status) + "; see the harness message above)");
  }
  BoardRun run = parse_board_results(read_text(image.dir + "/results.txt"));
  run.outputs = read_bytes(image.dir + "/outputs.bin");
  return run;
}

}  // namespace microaot
