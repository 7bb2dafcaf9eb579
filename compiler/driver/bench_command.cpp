// `microaot bench`: builds the model for a Cortex-M board, runs it under QEMU with -icount and reports
// instructions per inference, start-up instructions, flash, RAM and stack, and whether the outputs match
// the host build on the same input; a second run with the op hooks gives the instructions of each step
// (bench_profile.cpp). Everything reported is deterministic: two runs print the same.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "codegen/emit.h"
#include "codegen/graph_blob.h"
#include "driver/bench_cycles.h"
#include "driver/bench_profile.h"
#include "driver/commands.h"
#include "driver/custom_op_options.h"
#include "driver/cortex_m.h"
#include "driver/disassembly_stack.h"
#include "driver/image_report.h"
#include "driver/output_dir.h"
#include "ir/tensor_compare.h"
#include "support/diagnostics.h"

namespace fs = std::filesystem;

namespace microaot {

namespace {
std::string read_text_file(const std::string& path) {
  const std::vector<uint8_t> bytes = read_binary_file(path);
  return std::string(bytes.begin(), bytes.end());
}

void write_binary_file(const std::string& path, const uint8_t* data, size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) throw CompileError("cannot write " + path);
}

struct Sizes {
  SectionSizes model;    // every object of the generated library, kernels included
  SectionSizes weights;  // weights.c alone
  SectionSizes harness;  // startup, semihosting, timer, main
  SectionSizes image;    // the linked ELF
};

Sizes measure_sizes(const CortexMImage& image, const std::string& size_tool) {
  Sizes s;
  for (const std::string& obj : image.model_objects) s.model += section_sizes(size_tool, obj);
  s.weights = section_sizes(size_tool, image.weights_object);
  for (const std::string& obj : image.harness_objects) s.harness += section_sizes(size_tool, obj);
  s.image = section_sizes(size_tool, image.elf);
  return s;
}

// The static stack bound of NAME_run. The executor calls the step function through a pointer: AOT's
// NAME_step, or the interpreter's, which calls each linked kernel's entry (kernel_table.c) through another.
// The C library's functions (memcpy, memset) have no call graph: their depth is read from the image's code.
StackBound stack_bound(const CortexMImage& image, const CompiledModel& model, const std::string& objdump_tool) {
  std::vector<std::string> graphs;
  for (const std::string& obj : image.model_objects) {
    graphs.push_back(read_text_file(fs::path(obj).replace_extension(".ci").string()));
  }
  const std::string prefix = module_names(model).prefix;
  std::vector<std::string> targets = {prefix + "_step"};
  if (is_graph(model)) {
    targets = {"microaot_graph_step"};
    for (const KernelInfo* kernel : linked_kernels(model)) targets.push_back("entry_" + kernel->symbol);
  }
  const Disassembly code = disassemble(objdump_tool, image.elf);
  const auto library_depth = [&](const std::string& fn) { return disassembled_stack_depth(code, fn); };
  return static_stack_bound(graphs, prefix + "_run", targets, library_depth);
}

// One set of inputs: the given files (checked against the model) or zeros.
std::vector<uint8_t> bench_inputs(const BenchCommandOptions& o, const CompiledModel& model) {
  const size_t count = model.graph.inputs.size();
  if (!o.inputs.empty() && o.inputs.size() != count) {
    throw CompileError("the model has " + std::to_string(count) + " input(s), " + std::to_string(o.inputs.size()) +
                       " --input file(s) given");
  }
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < count; ++i) {
    const int64_t size = model.graph.tensor(model.graph.inputs[i]).byte_size();
    std::vector<uint8_t> input(static_cast<size_t>(size), 0);
    if (!o.inputs.empty()) input = read_binary_file(o.inputs[i]);
    if (static_cast<int64_t>(input.size()) != size) {
      throw CompileError("input " + std::to_string(i) + " '" + o.inputs[i] + "' has " +
                         std::to_string(input.size()) + " bytes, the model expects " + std::to_string(size));
    }
    bytes.insert(bytes.end(), input.begin(), input.end());
  }
  return bytes;
}

// Runs the same model and input on the host (`microaot run`) and returns its outputs back to back.
std::vector<uint8_t> host_outputs(const BenchCommandOptions& o, const CompiledModel& model,
                                  const std::vector<uint8_t>& inputs, const std::string& dir) {
  RunCommandOptions host;
  host.base = o.base;
  host.base.target = "c";
  host.base.target_c_mcpu.clear();
  host.quiet = true;
  host.output_dir = dir + "/out";
  size_t at = 0;
  for (size_t i = 0; i < model.graph.inputs.size(); ++i) {
    const size_t size = static_cast<size_t>(model.graph.tensor(model.graph.inputs[i]).byte_size());
    host.inputs.push_back(dir + "/input" + std::to_string(i) + ".bin");
    write_binary_file(host.inputs.back(), inputs.data() + at, size);
    at += size;
  }
  run_command(host);
  std::vector<uint8_t> outputs;
  for (size_t i = 0; i < model.graph.outputs.size(); ++i) {
    const std::vector<uint8_t> bytes = read_binary_file(host.output_dir + "/output" + std::to_string(i) + ".bin");
    outputs.insert(outputs.end(), bytes.begin(), bytes.end());
  }
  return outputs;
}

// Float outputs within the golden tolerance (libm and instruction selection differ between the host and
// the Arm build); everything else bit for bit.
bool outputs_match(const CompiledModel& model, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  if (got.size() != want.size()) return false;
  size_t at = 0;
  for (int id : model.graph.outputs) {
    const Tensor& t = model.graph.tensor(id);
    const auto slice = [&](const std::vector<uint8_t>& all) {
      return std::vector<uint8_t>(all.begin() + static_cast<std::ptrdiff_t>(at),
                                  all.begin() + static_cast<std::ptrdiff_t>(at + static_cast<size_t>(t.byte_size())));
    };
    if (!compare_tensor_data(t.dtype, slice(got), slice(want)).matches()) return false;
    at += static_cast<size_t>(t.byte_size());
  }
  return true;
}

void print_table(const nlohmann::ordered_json& r) {
  auto n = [&](const char* key) { return grouped(r[key].get<int64_t>()); };
  std::printf("microaot bench: %s on %s (QEMU %s), executor %s, optimize %s, input %s\n",
              r["model"].get<std::string>().c_str(), r["target"].get<std::string>().c_str(),
              r["machine"].get<std::string>().c_str(), r["executor"].get<std::string>().c_str(),
              r["optimize"].get<std::string>().c_str(),
              r["input"].is_string() ? r["input"].get<std::string>().c_str() : r["input"].dump().c_str());
  std::printf("  instructions per inference  %14s   (QEMU counts instructions, not cycles)\n", n("instructions").c_str());
  print_cycle_estimate(r);
  std::printf("  init instructions           %14s\n", n("init_instructions").c_str());
  const std::string description = r.contains("description_bytes") ? " + description " + n("description_bytes") + " B" : "";
  std::printf("  flash, model + kernels      %14s B (code %s B + weights %s B%s)\n", n("flash_bytes").c_str(),
              n("code_bytes").c_str(), n("weights_bytes").c_str(), description.c_str());
  std::printf("  flash, whole image          %14s B (C library %s B)\n", n("image_flash_bytes").c_str(),
              n("library_flash_bytes").c_str());
  std::printf("  RAM, model data + bss       %14s B\n", n("ram_bytes").c_str());
  if (r.contains("state_bytes")) {  // a streaming model: one inference is one step
    std::printf("  state kept between steps    %14s B (each step copies %s B of it)\n", n("state_bytes").c_str(),
                n("state_copy_bytes_per_step").c_str());
  }
  const std::string bound = r["stack_bound_bytes"].is_null() ? "unbounded" : n("stack_bound_bytes") + " B";
  std::printf("  stack, peak measured        %14s B (static bound %s)\n", n("stack_bytes").c_str(), bound.c_str());
  if (!r["stack_bound_excludes"].empty()) {
    std::printf("  stack bound unknown for     %14s\n", r["stack_bound_excludes"].dump().c_str());
  }
  std::printf("  outputs match the host run  %14s\n", !r["outputs_match"].get<bool>() ? "NO"
                                                       : r["outputs_bit_exact"].get<bool>() ? "yes, bit-exact"
                                                                                            : "yes, within tolerance");
}
}  // namespace

int bench_command(BenchCommandOptions& o) {
  if (o.base.target.empty() && o.base.target_c_mcpu.empty()) o.base.target = "cortex-m4";
  resolve_compile_options(o.base);
  if (o.base.compile.target.is_generic()) {
    throw UsageError("bench runs on an emulated Cortex-M only: --target cortex-m3, cortex-m4 (the default), "
                     "cortex-m7, cortex-m33 or cortex-m55");
  }
  const CortexMBoard& board = cortex_m_board(o.base.compile.target.cpu);
  const bool estimate_cycles = o.cycles || o.clock_mhz > 0;
  if (o.clock_mhz < 0) throw UsageError("--clock-mhz must be positive");
  const CycleCore core = estimate_cycles ? cycle_core(board.cpu) : CycleCore::m4;
  const CompiledModel model = compile_model(read_binary_file(o.base.model_path), o.base.compile);
  const std::vector<uint8_t> inputs = bench_inputs(o, model);

  TempDir build;
  if (o.keep_build) build.keep();
  const BuildTools tools{o.cc.empty() ? "arm-none-eabi-gcc" : o.cc, o.cflags, {},
                         custom_source_files(model.options.custom_ops, o.base.custom_sources)};
  const CortexMImage image = build_cortex_m_image(model, board, tools, build.path() + "/arm");
  const std::string exec_log = estimate_cycles ? build.path() + "/arm/exec.log" : "";
  const BoardRun run = run_cortex_m_image(board, image, inputs, exec_log);
  MICROAOT_CHECK(run.sets.size() == 1, "one input set was benchmarked");
  const Sizes sizes = measure_sizes(image, cross_tool(tools.cc, "size"));
  const StackBound bound = stack_bound(image, model, cross_tool(tools.cc, "objdump"));
  fs::create_directories(build.path() + "/host");
  const std::vector<uint8_t> reference = host_outputs(o, model, inputs, build.path() + "/host");

  nlohmann::ordered_json r;
  r["model"] = o.base.model_path;
  r["target"] = board.cpu;
  r["machine"] = board.machine;
  r["executor"] = o.base.compile.executor;
  r["optimize"] = optimize_name(o.base.compile.target);
  r["input"] = o.inputs.empty() ? nlohmann::ordered_json("zeros") : nlohmann::ordered_json(o.inputs);
  r["instructions"] = run.sets[0].instructions;
  r["init_instructions"] = run.init_instructions;
  r["flash_bytes"] = sizes.model.flash();
  r["code_bytes"] = sizes.model.flash() - sizes.weights.flash();
  r["weights_bytes"] = sizes.weights.flash();
  if (is_graph(model)) {  // weights.c holds the blob: its constants, and the description of the model
    const GraphBlob blob = build_graph_blob(model);
    r["weights_bytes"] = blob.constants_bytes;
    r["description_bytes"] = sizes.weights.flash() - blob.constants_bytes;
  }
  r["ram_bytes"] = sizes.model.ram();
  r["context_bytes"] = context_bytes32(model);
  if (model.persistent_bytes > 0) {
    r["state_bytes"] = model.persistent_bytes;
    r["state_copy_bytes_per_step"] = state_copy_bytes_per_step(model);
  }
  r["stack_bytes"] = std::max(run.sets[0].stack_bytes, run.init_stack_bytes);
  r["stack_bound_bytes"] = bound.bytes < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(bound.bytes);
  r["stack_bound_excludes"] = bound.externals;
  r["image_flash_bytes"] = sizes.image.flash();
  r["image_ram_bytes"] = sizes.image.ram();
  r["library_flash_bytes"] = sizes.image.flash() - sizes.model.flash() - sizes.harness.flash();
  r["outputs_match"] = outputs_match(model, run.outputs, reference);
  r["outputs_bit_exact"] = run.outputs == reference;
  r["counting"] = "instructions under QEMU -icount shift=0 (not cycles), net of an empty call";
  if (estimate_cycles) {
    add_cycle_estimate(r, core, exec_log, o.clock_mhz);
    fs::remove(exec_log);  // hundreds of MB for a large model
  }
  add_per_op_profile(r, model, board, tools, image, inputs, run, estimate_cycles ? &core : nullptr);
  if (o.json) {
    std::printf("%s\n", r.dump(2).c_str());
  } else {
    print_table(r);
    print_per_op_profile(r);
  }
  if (o.keep_build) std::fprintf(stderr, "microaot: build kept in %s\n", build.path().c_str());
  return r["outputs_match"].get<bool>() ? 0 : 1;
}

}  // namespace microaot
