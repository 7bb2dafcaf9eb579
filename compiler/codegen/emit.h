// Codegen: turns a CompiledModel into the files of the output folder, as text in memory. Writing them to
// disk is the driver's job, so codegen stays deterministic and testable (same model -> same bytes).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "compile/compile_model.h"
#include "compile/plan_memory.h"
#include "memory/plan_report.h"

namespace microaot {

using FileSet = std::map<std::string, std::string>;  // relative path -> contents, sorted by path

FileSet emit_library(const CompiledModel& model);
// Several models in one folder for firmware that runs one at a time: each model's own files in NAME/,
// kernels and platform hooks once, and one arena sized for the largest (emit_shared_library.cpp).
// The models must have been compiled with options.shared_arena = kSharedArenaSymbol.
constexpr const char* kSharedArenaSymbol = "microaot_shared_arena";
FileSet emit_shared_library(const std::vector<CompiledModel>& models);

// The pieces, one file each (emit_<piece>.cpp).
std::string emit_api_header(const CompiledModel& model);     // NAME.h
std::string emit_model_source(const CompiledModel& model);   // NAME.c
std::string emit_weights_source(const CompiledModel& model); // weights.c
std::string emit_memory_map(const CompiledModel& model);     // memory_map.h
std::string emit_platform_header();                          // platform.h
std::string emit_platform_source();                          // platform.c (weak defaults)
// What the build files of a folder (one model, or several sharing an arena) list and offer.
struct BuildFiles {
  std::string library;       // CMake target: the module prefix, or "microaot_models"
  std::string prefix;        // of CMake options and Make variables: "MODEL", or "MICROAOT_MODELS"
  std::vector<std::string> own_sources;      // the models' own files (NAME.c, weights.c)
  std::vector<std::string> runtime_sources;  // platform.c and kernels/*.c: the same code in every folder
  std::string arena_source;                  // "shared_arena.c" (left out without the static arena), or ""
  std::vector<std::string> include_dirs;     // relative to the folder: "", "kernels", model folders
  std::vector<std::string> no_static_arena;  // the NAME_NO_STATIC_ARENA macros the static-arena option sets
  bool optimize_size = false;                // --optimize size: the library is built with -Os
  // Otherwise the sources built with -Os all the same, and the other runtime sources (codegen/source_levels.h):
  // in a Makefile with several folders a runtime file that any folder's layers need fast keeps the user's -O.
  std::set<std::string> size_sources, speed_sources;
};
std::string emit_cmake_lists(const BuildFiles& build);        // CMakeLists.txt
std::string emit_makefile_fragment(const BuildFiles& build);  // NAME.mk, microaot_models.mk
std::string emit_network_info(const CompiledModel& model);   // network_info.txt
std::string emit_report_json(const CompiledModel& model);    // report.json

// --executor graph (emit_graph_source.cpp): the kernels the firmware links (the model's, plus
// --link-kernels), sorted by id; kernel_table.c; weights.c holding the blob.
std::vector<const KernelInfo*> linked_kernels(const CompiledModel& model);
std::string emit_kernel_table(const CompiledModel& model);
std::string emit_blob_source(const CompiledModel& model, const std::vector<uint8_t>& blob);
bool is_graph(const CompiledModel& model);

// The C call of a step's kernel (no semicolon) with the params struct `params` (its symbol), its input i moved
// by input_offsets[i] bytes (none: 0) and its output by output_offset; `prelude` receives the declarations a
// list argument needs.
std::string kernel_call_text(const CompiledModel& model, size_t step, const std::string& params,
                             const std::vector<int64_t>& input_offsets, int64_t output_offset, std::string& prelude);
// emit_bands.cpp: the params structs of the fused bands' calls, and the step-function case that runs a chain.
std::string emit_band_params(const CompiledModel& model);
std::string emit_band_case(const CompiledModel& model, const FusedChain& chain);
// The storage tensor a residual ADD (layer `layer` of chain c) reads its skip rows from.
int residual_skip_tensor(const CompiledModel& model, const FusedChain& c, int layer);
// memory_plan.txt's section on them: each chain, its line buffers, what tiling could reach.
std::string bands_plan_text(const CompiledModel& model);

// The persistent region's bytes after init and reset: each variable's initial value (zeros between).
std::vector<uint8_t> initial_state(const CompiledModel& model);

// Shared naming: the C prefix ("model") and macro prefix ("MODEL") of the module.
struct ModuleNames {
  std::string prefix;
  std::string macro;
};
ModuleNames module_names(const CompiledModel& model);
// Symbol prefix of a step's params in NAME.c and of their arrays in weights.c: "<prefix>_op<step>".
std::string op_symbol(const ModuleNames& n, size_t step);
// The first step whose kernel takes the same params struct with the same values as `step`'s (`step` itself
// when none, and for a custom call): NAME.c defines one struct, and weights.c one set of its arrays, for all
// of them (a model's repeated blocks: KWS's four pointwise layers share one).
size_t params_owner(const CompiledModel& model, size_t step);

// Symbol of a constant tensor in weights.c: "<prefix>_tensor_<id>".
std::string constant_symbol(const CompiledModel& model, int tensor_id);
// Total bytes of the constants weights.c places in flash: the constant tensors (weights, biases, derived
// constants) and, with the aot executor, the params arrays (per-channel multipliers and shifts, shapes) of
// every call but a custom one's.
int64_t weights_bytes(const CompiledModel& model);
// Tensor ids of the constants that reach flash, in id order.
std::vector<int> used_constants(const CompiledModel& model);
// With --io-in-arena off: the slot of a graph input/output storage in ctx->io (inputs first, then
// outputs); -1 for any other tensor, or when inputs and outputs live in the arena.
int io_slot(const CompiledModel& model, int tensor_id);
// With --pool: the pool (index into options.pools) holding a planned tensor's storage; 0 otherwise (one
// arena, or an input/output bound per context with --io-in-arena off).
size_t pool_of_tensor(const CompiledModel& model, int tensor_id);
// The C symbol of pool k >= 1 ("<prefix>_pool_<name>"); pool 0 is the arena bound to the context.
std::string pool_symbol(const CompiledModel& model, size_t pool);
// With --pool: each pool (name, size, bytes used, planner, C symbol) and the pool of each buffer, for the
// reports; empty with one arena.
PoolLayout pool_layout(const CompiledModel& model);
// arena_header_bytes: compile/plan_memory.h (the RAM budget counts the header too).
// Bytes init() needs (NAME_ARENA_SIZE): the header plus the planned arena.
int64_t arena_buffer_bytes(const CompiledModel& model);
// Inputs (plus outputs, with --io-in-arena off) of a context: its slots.
size_t context_slots(const CompiledModel& model);
// sizeof(NAME_context) on a 32-bit target; the generated code checks it at compile time.
int64_t context_bytes32(const CompiledModel& model);
// The contexts the figures count on a 32-bit target: one, plus the microTVM entry's with --interface-api c.
int64_t contexts_bytes(const CompiledModel& model);
// Whether NAME.c keeps a record of the last writer of the model's own static memory (pools, and the
// default I/O buffers of --io-in-arena off), which every context of the model shares; its bytes (or 0).
bool has_static_owner(const CompiledModel& model);
int64_t static_record_bytes(const CompiledModel& model);
// Whether the model runs on the arena-only build of the executor core (executor_arena.c, its calls named
// microaot_arena_*): AOT, I/O in the arena, one pool, no state, no microTVM entry (which runs on the full core).
bool uses_arena_executor(const CompiledModel& model);
// The executor core's calls for this model: "microaot_arena_" or "microaot_".
std::string executor_call_prefix(const CompiledModel& model);
// Bytes of static RAM the library needs besides the stack: the static arena (header included), the
// further pools, the I/O buffers outside the arena, the static record and the contexts.
int64_t static_ram_bytes(const CompiledModel& model);
// The options that shaped the output, as `microaot compile` flags ("--module-name kws --target c ..."),
// recorded in NAME.h and report.json.
std::string compile_flags_text(const CompileOptions& options);
// --target's value for `target`: "c", "c -mcpu=cortex-m33+nodsp", "cmsis-nn, c -mcpu=cortex-m55"
// (parse_target gives `target` back).
std::string target_flag(const Target& target);

// The address of a planned (non-constant) tensor in the step function: "arena + NAME_TENSOR_5_OFFSET", a
// pool, or the buffer bound to its I/O slot.
std::string planned_address(const CompiledModel& model, int tensor_id);
// The scratch planned for `step`, as a void * expression of the step function.
std::string scratch_argument(const CompiledModel& model, size_t step);
// Calls of user functions (--custom-op, emit_custom_call.cpp): NAME.c's #include lines for their headers,
// a call's const tables (tensor descriptions, options bytes), and its case of the step function.
std::string custom_includes(const CompiledModel& model);
std::string custom_call_tables(const CompiledModel& model, size_t step, const std::string& symbol);
std::string custom_call_case(const CompiledModel& model, size_t step, const std::string& symbol);

constexpr const char* kGeneratedBanner =
    "/* Generated by microaot. Do not edit: regenerate with `microaot compile` instead. */\n";

}  // namespace microaot
