// The options `compile`, `run`, `bench` and `validate` share: registered on each subcommand, then checked
// and turned into CompileOptions. Every mistake here is a UsageError (exit status 2), found before any
// file is read.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "driver/commands.h"
#include "driver/custom_op_options.h"
#include "support/byte_size.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {

namespace {
// --target (tvmc's spellings included, target/target.h) and --target-c-mcpu, tvmc's spelling of " -mcpu=X".
Target resolve_target(const CompileCommandOptions& o) {
  try {
    const Target target = parse_target(o.target.empty() ? "c" : o.target);
    if (o.target_c_mcpu.empty()) return target;
    Target extra = parse_target("c -mcpu=" + o.target_c_mcpu);
    if (!target.is_generic() && target.cpu != extra.cpu) {
      throw UsageError("--target says " + target.cpu + " but --target-c-mcpu says " + extra.cpu);
    }
    if (!target.is_generic()) return target;
    extra.fast_kernels_requested = target.fast_kernels_requested;
    return extra;
  } catch (const CompileError& e) {
    throw UsageError(e.what());  // a target is wrong whatever the model
  }
}

void check_alignment(int64_t a, const std::string& what) {
  if ((a & (a - 1)) != 0 || a > 4096) {
    throw UsageError(what + ": the alignment must be a power of two between 1 and 4096, got " + std::to_string(a));
  }
}

bool is_c_identifier(const std::string& name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// "NAME:SIZE[:ALIGN]"
PoolOption parse_pool(const std::string& text) {
  const std::string what = "--pool " + text;
  const size_t first = text.find(':');
  if (first == std::string::npos) throw UsageError(what + ": expected NAME:SIZE[:ALIGN]");
  const size_t second = text.find(':', first + 1);
  PoolOption pool;
  pool.name = text.substr(0, first);
  if (!is_c_identifier(pool.name)) throw UsageError(what + ": the pool name must be a C identifier");
  const size_t size_end = second == std::string::npos ? std::string::npos : second - first - 1;
  pool.size = parse_byte_size(text.substr(first + 1, size_end), what, 1);
  if (second != std::string::npos) {
    pool.alignment = parse_byte_size(text.substr(second + 1), what, 1);
    check_alignment(pool.alignment, what);
  }
  return pool;
}

void resolve_pools(CompileCommandOptions& o) {
  o.compile.pools.clear();  // resolving twice (bench's host run) must not add the pools twice
  std::set<std::string> names;
  for (const std::string& text : o.pools) {
    o.compile.pools.push_back(parse_pool(text));
    if (!names.insert(o.compile.pools.back().name).second) {
      throw UsageError("--pool " + o.compile.pools.back().name + " is given twice");
    }
  }
}

// --compress-weights off|lossless|1..7, empty: the --optimize setting's default.
int compress_bits(const std::string& text, const Target& target) {
  if (text.empty()) return default_compress_bits(target);
  if (text == "off") return 0;
  if (text == "lossless") return kLosslessPaletteBits;
  if (text.size() == 1 && text[0] >= '1' && text[0] <= '0' + kLosslessPaletteBits) return text[0] - '0';
  throw UsageError("--compress-weights takes off, lossless or the bits per index 1 to " +
                   std::to_string(kLosslessPaletteBits) + ", got '" + text + "'");
}

void check_module_name(const std::string& name) {
  if (!is_c_identifier(name)) {
    throw UsageError("--module-name '" + name + "' must be a C identifier: letters, digits and '_', not "
                     "starting with a digit");
  }
}
}  // namespace

void add_compile_options(CLI::App& app, CompileCommandOptions& o, const std::string& target_help) {
  app.add_option("model", o.model_path, "the .tflite model")->required();
  app.add_option("--module-name", o.compile.module_name, "prefix of generated symbols and files (default: model)");
  app.add_option("--target", o.target, target_help);
  app.add_option("--target-c-mcpu", o.target_c_mcpu, "tvmc spelling of --target \"c -mcpu=CPU\"");
  app.add_option("--optimize", o.optimize,
                 "speed (default: ISA kernels and packed weights, widened to int16 in flash, where the target "
                 "has them), balanced (the same with int8 packed weights: half their flash) or size (the "
                 "portable kernels for every layer, built with -Os)");
  app.add_option("--compress-weights", o.compress_weights,
                 "off, lossless (layers whose int8 weights take at most 128 values per channel keep packed indices "
                 "and per-channel tables in flash, decoded in the kernel, where that is smaller; the default at "
                 "--optimize size and balanced, where on a DSP target only the 1x1 layers the DSP palette kernel "
                 "runs within about 15% of the packed kernel's instructions take it) or K (the same, at most "
                 "K = 1..7 bits per index)");
  app.add_option("--cluster-weights", o.compile.cluster_values,
                 "K: LOSSY, rewrite the int8 weights of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED to at most K "
                 "values per output channel (deterministic k-means; compile writes NAME_clustered.tflite too), "
                 "which --compress-weights then stores as palettes");
  app.add_option("--executor", o.compile.executor,
                 "aot (default: the fixed call sequence) or graph (an interpreter over a replaceable model blob)");
  app.add_option("--link-kernels", o.compile.link_kernels,
                 "graph: kernels the firmware links besides the model's: all, or kernel symbols and stems")
      ->delimiter(',');
  app.add_option("--runtime", o.runtime, "crt (accepted for tvmc compatibility)");
  app.add_option("--interface-api,--executor-aot-interface-api", o.interface_api,
                 "c: also emit tvmgen_<name>_run(inputs*, outputs*)");
  app.add_flag("--unpacked-api,--executor-aot-unpacked-api", o.unpacked_api,
               "accepted for tvmc compatibility (the API is always unpacked)");
  app.add_option("--planner", o.compile.planner,
                 "memory planner: best (default: the smallest of all), greedy_by_size, greedy_by_conflicts, "
                 "hill_climb, branch_and_bound, linear; all = best plus a comparison table");
  app.add_option("--alignment", o.alignment, "byte alignment of buffers and arena: a power of two (default 16)");
  app.add_option("--ram-budget", o.ram_budget,
                 "fail unless the RAM the application provides fits in BYTES (e.g. 65536, 64K, 1MiB): NAME_ARENA_SIZE "
                 "(header included), further pools and I/O buffers outside the arena; not the contexts");
  app.add_option("--flash-budget", o.flash_budget,
                 "fail unless the library's weights and estimated code fit in BYTES (sizes as for --ram-budget; no "
                 "default: the targets name cores, not parts); at --optimize speed, widen packed weights to int16 "
                 "layer by layer only while they fit, the most instructions saved per byte first");
  app.add_option("--tiling", o.tiling,
                 "auto (default): fused bands where they cost little, or where --ram-budget needs them "
                 "(docs/tiling.md); off: whole layers");
  app.add_option("--pool", o.pools,
                 "NAME:SIZE[:ALIGN] a further memory for buffers that do not fit, sizes as for --ram-budget "
                 "(repeatable)");
  app.add_option("--io-in-arena", o.io_in_arena, "on (default): inputs/outputs inside the arena; off: own buffers");
  app.add_option("--dump-ir-after", o.compile.dump_ir_after, "print the IR after this pass (or 'all') to stderr");
  add_tvmc_options(app, o.tvmc);
  app.add_option("--input-shape", o.input_shapes,
                 "NAME=1x3x96x96 fixes an ONNX graph input's shape (its symbolic dimensions; repeatable)");
  app.add_option("--io-layout", o.io_layout,
                 "model (default): an ONNX model's inputs and outputs in its own (NCHW) layout; nhwc: its rank-4 "
                 "inputs and outputs in NHWC, as cameras deliver images (no TRANSPOSE at the boundary)");
}

void add_custom_op_option(CLI::App& app, std::vector<std::string>& custom_ops) {
  app.add_option("--custom-op", custom_ops,
                 "NAME=HEADER[,function=FN][,scratch=BYTES] call the user's C function for the CUSTOM op NAME (its "
                 "custom_code) or the builtin NAME (repeatable; examples/custom-op/README.md)");
}

void add_custom_op_option(CLI::App& app, CompileCommandOptions& o) { add_custom_op_option(app, o.custom_ops); }

void add_custom_op_options(CLI::App& app, std::vector<std::string>& custom_ops, std::vector<std::string>& sources) {
  add_custom_op_option(app, custom_ops);
  app.add_option("--custom-source", sources,
                 "FILE.c the user's C code of the --custom-op functions, built with the library (repeatable; "
                 "default: the .c beside each --custom-op header)")
      ->needs("--custom-op");
}

// --input-shape NAME=DxDx...: positive dimensions.
void resolve_input_shapes(CompileCommandOptions& o) {
  o.compile.input_shapes.clear();
  for (const std::string& text : o.input_shapes) {
    const size_t eq = text.rfind('=');
    std::vector<int32_t> dims;
    std::string rest = eq == std::string::npos ? "" : text.substr(eq + 1) + "x";
    for (size_t at = 0; !rest.empty() && at < rest.size();) {
      const size_t x = rest.find('x', at);
      const std::string d = rest.substr(at, x - at);
      if (d.empty() || d.size() > 9 || d.find_first_not_of("0123456789") != std::string::npos || std::stol(d) < 1) {
        dims.clear();
        break;
      }
      dims.push_back(static_cast<int32_t>(std::stol(d)));
      at = x + 1;
    }
    if (eq == std::string::npos || eq == 0 || dims.empty()) {
      throw UsageError("--input-shape '" + text + "' must be NAME=DxDx... with positive dimensions, e.g. input=1x3x96x96");
    }
    o.compile.input_shapes[text.substr(0, eq)] = dims;
  }
}

void resolve_compile_options(CompileCommandOptions& o) {
  apply_tvmc_options(o);
  resolve_pools(o);
  resolve_input_shapes(o);
  if (o.io_layout != "model" && o.io_layout != "nhwc") {
    throw UsageError("--io-layout takes model or nhwc, got '" + o.io_layout + "'");
  }
  o.compile.nhwc_io = o.io_layout == "nhwc";
  o.compile.custom_ops = resolve_custom_ops(o.custom_ops);
  if (o.io_in_arena != "on" && o.io_in_arena != "off" && o.io_in_arena != "true" && o.io_in_arena != "false") {
    throw UsageError("--io-in-arena takes on or off, got '" + o.io_in_arena + "'");
  }
  o.compile.io_in_arena = o.io_in_arena == "on" || o.io_in_arena == "true";
  if (o.compile.planner == "all") {
    o.compile.planner = "best";
    o.planner_table = true;
  }
  o.compile.target = resolve_target(o);
  if (o.optimize != "speed" && o.optimize != "balanced" && o.optimize != "size") {
    throw UsageError("--optimize takes speed, balanced or size, got '" + o.optimize + "'");
  }
  o.compile.target.optimize_size = o.optimize == "size";
  o.compile.target.optimize_balanced = o.optimize == "balanced";
  o.compile.target.compress_bits = compress_bits(o.compress_weights, o.compile.target);
  o.compile.target.compress_off_asked = o.compress_weights == "off";
  o.compile.target.compress_fast_only = o.compress_weights.empty() && default_compress_fast_only(o.compile.target);
  if (o.compile.cluster_values < 0 || o.compile.cluster_values > kMaxClusterValues) {
    throw UsageError("--cluster-weights takes 1 to " + std::to_string(kMaxClusterValues) + " values per channel, got " +
                     std::to_string(o.compile.cluster_values));
  }
  if (o.runtime != "crt") throw UsageError("--runtime '" + o.runtime + "' is not supported (only crt)");
  if (!o.interface_api.empty() && o.interface_api != "c") {
    throw UsageError("--interface-api '" + o.interface_api + "' is not supported (only c)");
  }
  o.compile.interface_api_c = o.interface_api == "c";
  if (!o.alignment.empty()) o.compile.alignment = parse_byte_size(o.alignment, "--alignment", 1);
  if (!o.ram_budget.empty()) o.compile.ram_budget = parse_byte_size(o.ram_budget, "--ram-budget", 1);
  if (!o.flash_budget.empty()) o.compile.flash_budget = parse_byte_size(o.flash_budget, "--flash-budget", 1);
  if (o.tiling != "auto" && o.tiling != "off") throw UsageError("--tiling takes auto or off, got '" + o.tiling + "'");
  o.compile.tiling = o.tiling == "auto";
  check_module_name(o.compile.module_name);
  o.compile.source_name = std::filesystem::path(o.model_path).filename().string();
  check_compile_options(o.compile);
}

}  // namespace microaot
