// NAME.h: the model's API, documented for its users: sizes, I/O facts, the context type and the calls,
// which are thin wrappers over the runtime's executor core (microaot/executor.h).
#include <algorithm>
#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
#include "codegen/graph_blob.h"
#include "ir/ir_dump.h"
#include "ops/quant_math.h"

namespace microaot {

namespace {
void emit_io_macros(std::ostringstream& out, const CompiledModel& model, const char* kind,
                    const std::vector<int>& ids) {
  const std::string macro = module_names(model).macro;
  for (size_t i = 0; i < ids.size(); ++i) {
    const Tensor& t = model.graph.tensor(ids[i]);
    const std::string m = macro + "_" + kind + "_" + std::to_string(i);
    out << "/* " << kind << " " << i << ": '" << c_comment_text(t.name) << "', " << dtype_name(t.dtype) << " "
        << format_shape(t.shape) << " */\n";
    out << "#define " << m << "_SIZE " << t.byte_size() << "u /* bytes */\n";
    out << "#define " << m << "_ELEMENTS " << t.num_elements() << "u\n";
    if (t.quant.scale.size() == 1) {
      out << "#define " << m << "_SCALE " << c_float_literal(t.quant.scale[0]) << " /* " << t.quant.scale[0]
          << " */\n";
      out << "#define " << m << "_ZERO_POINT (" << t.quant.zero_point[0] << ")\n";
    }
  }
}

void emit_tvm_interface(std::ostringstream& out, const CompiledModel& model) {
  const std::string p = module_names(model).prefix;
  const auto fields = [&](const std::vector<int>& ids) {
    for (size_t i = 0; i < ids.size(); ++i) {
      out << "  void *" << c_identifier(model.graph.tensor(ids[i]).name) << "_" << i << ";\n";
    }
  };
  out << "\n/* microTVM-style entry (--interface-api c): init on the static arena with a context of its own,\n"
      << " * write (or, with --io-in-arena off, bind) each input, run, read (or bind) each output, destroy.\n"
      << " * Returns 0 on success, else a microaot_status value. Not reentrant. */\n";
  out << "struct tvmgen_" << p << "_inputs {\n";
  fields(model.graph.inputs);
  out << "};\nstruct tvmgen_" << p << "_outputs {\n";
  fields(model.graph.outputs);
  out << "};\nint32_t tvmgen_" << p << "_run(struct tvmgen_" << p << "_inputs *inputs, struct tvmgen_" << p
      << "_outputs *outputs);\n";
}

int64_t io_alignment(const CompiledModel& model) {
  size_t align = 1;
  for (int id : model.graph.inputs) align = std::max(align, dtype_size(model.graph.tensor(id).dtype));
  for (int id : model.graph.outputs) align = std::max(align, dtype_size(model.graph.tensor(id).dtype));
  return static_cast<int64_t>(align);
}

void emit_bind_prototypes(std::ostringstream& out, const ModuleNames& n) {
  const std::string& p = n.prefix;
  out << "\n/* --io-in-arena off: init() binds each input/output to a default buffer of the library (none when\n"
      << " * " << n.macro << "_NO_STATIC_ARENA is defined: bind all before run()); every context of the model\n"
      << " * shares those. These calls bind them to the caller's memory instead (e.g. a DMA buffer): zero copy,\n"
      << " * `size` at least the tensor's, aligned to " << n.macro << "_IO_ALIGN. The run reads a bound input\n"
      << " * where it is, on every run. BUFFER_OVERLAP: the buffer shares bytes with the arena, a default buffer,\n"
      << " * or (for an output, or an input against an output) another buffer bound to this context. Binding\n"
      << " * an output makes the last outputs unreadable. The library cannot see a buffer bound to two contexts:\n"
      << " * don't. */\n";
  out << "microaot_status " << p << "_bind_input(" << p << "_context *ctx, size_t index, void *buffer, size_t size);\n";
  out << "microaot_status " << p << "_bind_output(" << p
      << "_context *ctx, size_t index, void *buffer, size_t size);\n";
}

void emit_prototypes(std::ostringstream& out, const ModuleNames& n) {
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  const std::string ctx = p + "_context *ctx";
  out << "/* Every call returns MICROAOT_STATUS_OK or the first problem found (" << p << "_status_string() names it)\n"
      << " * and changes nothing on failure, except where said. NULL_POINTER: ctx or a required pointer is NULL.\n"
      << " * BAD_STATE: not allowed in the context's state: IDLE (zero-filled, destroyed, failed init, or a copy\n"
      << " * of a context: a context works where init put it), RUNNING (a call from inside its own run, e.g. from\n"
      << " * a profiling hook), STEPPING (a run_steps run is unfinished), or no completed run to read. */\n\n";
  out << "/* Binds the arena: `arena` of at least " << m << "_ARENA_SIZE bytes aligned to " << m << "_ARENA_ALIGN,\n"
      << " * or NULL for the library's static arena (absent when " << m << "_NO_STATIC_ARENA is defined: then\n"
      << " * NULL_POINTER). ARENA_TOO_SMALL / ARENA_MISALIGNED: the arena does not fit. Call it first, on any\n"
      << " * memory (the context need not be zeroed); on failure the context is left IDLE. It does not touch the\n"
      << " * arena, so it never disturbs another context sharing it, except in a model with state (resource\n"
      << " * variables, " << m << "_PERSISTENT_SIZE in memory_map.h): init writes the initial state there, as reset. */\n";
  out << "microaot_status " << p << "_init(" << ctx << ", void *arena, size_t arena_size);\n\n";
  out << "/* Copies `size` bytes into input `index`. BAD_INDEX: index >= " << m << "_NUM_INPUTS; BAD_SIZE:\n"
      << " * size is not exactly the input's size. Outputs of the previous run are no longer readable. */\n";
  out << "microaot_status " << p << "_set_input(" << ctx << ", size_t index, const void *data, size_t size);\n\n";
  out << "/* The library's buffer of input `index` for zero-copy fills (e.g. DMA), and its size (`size` may be\n"
      << " * NULL). Counts as writing the input; fill it before run(). Errors and effects as set_input. */\n";
  out << "microaot_status " << p << "_input_ptr(" << ctx << ", size_t index, void **data, size_t *size);\n\n";
  out << "/* Runs the model once: a fixed sequence of kernel calls, no allocation. INPUT_NOT_SET: an input was not\n"
      << " * written since init, or (inputs in the arena) since the last run, which may overwrite them.\n"
      << " * ARENA_CLOBBERED: another context sharing the memory wrote it after this context's input write\n"
      << " * (write the inputs again), or during this run (from a hook or an interrupt: then neither context's\n"
      << " * results are readable). VALUE_OUT_OF_RANGE: an operator refused a value of its data (a GATHER,\n"
      << " * GATHER_ND or EMBEDDING_LOOKUP index outside its dimension); the run is abandoned, no output is\n"
      << " * readable. */\n";
  out << "microaot_status " << p << "_run(" << ctx << ");\n\n";
  out << "/* run() in slices, for a task that must yield or kick a watchdog: runs at most `max_ops` operators\n"
      << " * (of " << m << "_NUM_OPS) and returns IN_PROGRESS while some are left, OK when the run is complete\n"
      << " * (the outputs are then readable, as after run()). The first call starts a run (errors as run());\n"
      << " * the next ones continue it. Until it completes, only run_steps, init and destroy (which abandon\n"
      << " * the run) are allowed: BAD_STATE otherwise. ARENA_CLOBBERED: another context wrote the shared memory\n"
      << " * between two calls; the run is abandoned (write the inputs again). BAD_SIZE: max_ops is 0. */\n";
  out << "microaot_status " << p << "_run_steps(" << ctx << ", size_t max_ops);\n\n";
  out << "/* Copies output `index` (exactly `size` bytes, else BAD_SIZE) after a run. BAD_STATE: no completed run\n"
      << " * since init or since the last input write. BAD_INDEX: index >= " << m << "_NUM_OUTPUTS.\n"
      << " * ARENA_CLOBBERED: another context sharing the memory wrote it since the run. */\n";
  out << "microaot_status " << p << "_get_output(" << ctx << ", size_t index, void *data, size_t size);\n\n";
  out << "/* The buffer of output `index` after a run, and its size (`size` may be NULL); its bytes are valid until\n"
      << " * the next input write or run of any context sharing the memory. Errors as get_output. */\n";
  out << "microaot_status " << p << "_output_ptr(" << ctx << ", size_t index, const void **data, size_t *size);\n\n";
  out << "/* Releases the arena binding (the arena keeps its bytes); the context returns to IDLE (again OK when\n"
      << " * already IDLE). BAD_STATE while running. */\n";
  out << "microaot_status " << p << "_destroy(" << ctx << ");\n\n";
  out << "/* Restores the initial state of a model with state (resource variables kept from run to run in the\n"
      << " * context's arena; two contexts on two arenas keep two states): the values init wrote, which CALL_ONCE's\n"
      << " * initialisation computes. Abandons a run_steps run in progress. OK and nothing to do for a model\n"
      << " * without state. A model with state: run() returns ARENA_CLOBBERED once another context wrote the\n"
      << " * arena, or a run failed, until reset. BAD_STATE: IDLE or RUNNING. */\n";
  out << "microaot_status " << p << "_reset(" << ctx << ");\n\n";
  out << "/* A constant one-line description of a status, e.g. \"arena clobbered by another context\". */\n";
  out << "const char *" << p << "_status_string(microaot_status status);\n";
}

// --executor graph: the blob's figures, what a replacement blob may need, and the interpreter's state.
void emit_graph_context(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& m = n.macro;
  out << "/* Graph executor: this model is the blob " << n.prefix << "_blob (weights.c, also " << n.prefix
      << ".blob), run by the\n * interpreter over the " << m << "_NUM_KERNELS kernels this firmware links (kernel_table.c). */\n"
      << "#define " << m << "_BLOB_SIZE " << build_graph_blob(model).bytes.size() << "u\n"
      << "#define " << m << "_NUM_KERNELS " << linked_kernels(model).size() << "u\n"
      << "extern const uint32_t " << n.prefix << "_blob[" << m << "_BLOB_SIZE / 4u];\n"
      << "/* What this firmware's contexts hold for a replacement blob (init_blob); define them larger (for every\n"
      << " * file of this folder) for blobs with more inputs or a larger arena. */\n"
      << "#ifndef " << m << "_MAX_INPUTS\n#define " << m << "_MAX_INPUTS " << m << "_NUM_INPUTS\n#endif\n"
      << "#ifndef " << m << "_STATIC_ARENA_SIZE\n#define " << m << "_STATIC_ARENA_SIZE " << m << "_ARENA_SIZE\n#endif\n\n";
  out << "typedef struct " << n.prefix << "_context {\n  microaot_context core;\n  microaot_slot slots[" << m
      << "_MAX_INPUTS];\n  microaot_graph graph; /* the descriptor init fills from the blob */\n} " << n.prefix
      << "_context;\n\n";
}

void emit_graph_prototypes(std::ostringstream& out, const ModuleNames& n) {
  const std::string& p = n.prefix;
  out << "\n/* init with another model's blob (compile --executor graph --blob-only), e.g. one received over the\n"
      << " * air: `blob` must stay valid and unchanged while the context uses it, 16-byte aligned (else\n"
      << " * ARENA_MISALIGNED). init validates the whole blob first: BAD_MODEL for a corrupt blob (checksum,\n"
      << " * sizes, offsets, records), UNSUPPORTED_MODEL for one this firmware cannot run (blob version, more\n"
      << " * than " << n.macro << "_MAX_INPUTS inputs), MISSING_KERNEL for one with a step whose kernel it does not\n"
      << " * link (" << p << "_missing_kernel gives its id); ARENA_TOO_SMALL when the arena (or\n"
      << " * the static one, " << n.macro << "_STATIC_ARENA_SIZE bytes) is smaller than the blob's plan. Sizes of\n"
      << " * its inputs and outputs: input_ptr and output_ptr return them. " << p << "_init(ctx, arena, size) is\n"
      << " * init_blob with the built-in blob. */\n";
  out << "microaot_status " << p << "_init_blob(" << p << "_context *ctx, const void *blob, size_t blob_size, void *arena,\n"
      << "                                size_t arena_size);\n";
  out << "/* After init returned MICROAOT_STATUS_MISSING_KERNEL: the id of the first kernel the blob needs and this\n"
      << " * firmware does not link (`microaot inspect BLOB` names each id; build blobs for this firmware with\n"
      << " * `compile --blob-only --for FIRMWARE_DIR`); 0xFFFFFFFF after any other init. */\n"
      << "uint32_t " << p << "_missing_kernel(const " << p << "_context *ctx);\n";
}

void emit_banner(std::ostringstream& out, const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  const std::string& m = n.macro;
  const CompileOptions& o = model.options;
  out << "/* " << p << ": compiled from '" << c_comment_text(o.source_name) << "'"
      << (o.microaot_version.empty() ? "" : " by microaot " + c_comment_text(o.microaot_version)) << ".\n";
  if (!o.model_sha256.empty()) out << " * Model SHA-256: " << c_comment_text(o.model_sha256) << "\n";
  out << " * Flags: " << c_comment_text(compile_flags_text(o)) << "\n"
      << " *\n"
      << " * Use: " << p << "_init() binds an arena (NULL = the static one); write each input with\n"
      << " * " << p << "_set_input() or through " << p << "_input_ptr(); " << p << "_run() (or " << p
      << "_run_steps() in slices);\n * read each output with " << p << "_get_output() or " << p
      << "_output_ptr(). Write every input again before each\n"
      << " * run. States: IDLE -init-> READY -run-> DONE (STEPPING between run_steps calls); a call in the wrong\n"
      << " * state returns MICROAOT_STATUS_BAD_STATE. There is no global mutable state except the optional\n"
      << " * static arena (and, with --pool or --io-in-arena off, the model's static buffers).\n"
      << " *\n"
      << " * Sharing memory: several contexts may use one arena (the static arena, the same buffer given to\n"
      << " * several init calls, or the shared arena of a multi-model folder), and all contexts of this model share\n"
      << " * its pools and default I/O buffers. The arena's first " << m << "_ARENA_HEADER_SIZE bytes record\n"
      << " * which context wrote it last: a context whose inputs, outputs or unfinished run_steps were overwritten\n"
      << " * by another gets MICROAOT_STATUS_ARENA_CLOBBERED (run, run_steps, get_output, output_ptr), never\n"
      << " * a wrong result with OK. Not seen by the library: arenas that overlap without starting at the same\n"
      << " * address, one caller buffer bound to two contexts, and writes through an input_ptr/output_ptr pointer\n"
      << " * after another context wrote the arena: keep arenas identical or disjoint, and pointers short-lived.\n"
      << " *\n"
      << " * Not thread-safe: use one context from one thread (or interrupt) at a time, and contexts sharing\n"
      << " * memory from one thread; RUNNING catches reentry from the same thread but is not a lock. Input data\n"
      << " * is not checked: any bytes are a valid input, but for indices (run: VALUE_OUT_OF_RANGE). See\n"
      << " * docs/errors.md of microaot.\n"
      << " *\n"
      << " * Build options: define them for every file of this folder (the generated CMakeLists.txt has options).\n";
  const bool shared = !o.shared_arena.empty();
  const std::string cmake = shared ? "MICROAOT_MODELS" : m;
  out << " *   " << m << "_NO_STATIC_ARENA  (CMake -D" << cmake << "_STATIC_ARENA=OFF) no static arena nor default\n"
      << " *     I/O buffers: init needs your arena, bind_* your buffers.\n"
      << " *   " << (shared ? "MICROAOT_SHARED_ARENA_SECTION" : m + "_ARENA_SECTION")
      << "  the static arena's placement, e.g. __attribute__((section(\".sram2\"))).\n"
      << " *   MICROAOT_PROFILE  (CMake -D" << cmake << "_PROFILE=ON) the executor calls microaot_platform_op_begin\n"
      << " *     and op_end (platform.h) around every operator. */\n";
}

void emit_sizes(std::ostringstream& out, const CompiledModel& model) {
  const std::string& m = module_names(model).macro;
  const CompileOptions& o = model.options;
  if (!o.microaot_version.empty()) out << "#define " << m << "_MICROAOT_VERSION \"" << c_comment_text(o.microaot_version) << "\"\n";
  if (!o.model_sha256.empty()) out << "#define " << m << "_MODEL_SHA256 \"" << c_comment_text(o.model_sha256) << "\"\n";
  out << "\n/* Bytes of memory init needs: " << m << "_ARENA_HEADER_SIZE bytes recording the arena's last writer, then\n"
      << " * the activations (" << model.plan.arena_size << " bytes, memory_map.h); and their required alignment. */\n";
  out << "#define " << m << "_ARENA_SIZE " << arena_buffer_bytes(model) << "u\n";
  out << "#define " << m << "_ARENA_ALIGN " << o.alignment << "u\n";
  out << "#define " << m << "_ARENA_HEADER_SIZE " << arena_header_bytes(model) << "u\n";
  if (!o.io_in_arena) {
    out << "/* Inputs and outputs live outside the arena, in buffers bound to the context. */\n";
    out << "#define " << m << "_IO_ALIGN " << io_alignment(model) << "u\n";
  }
  out << "/* Static RAM in all (static arena, pools, default I/O buffers, one context on a 32-bit target): the\n"
      << " * figure of report.json's ram_bytes. sizeof(" << module_names(model).prefix << "_context) on a 32-bit target: "
      << context_bytes32(model) << " bytes. */\n";
  out << "#define " << m << "_RAM_BYTES " << static_ram_bytes(model) << "u\n\n";
  out << "#define " << m << "_NUM_INPUTS " << model.graph.inputs.size() << "u\n";
  out << "#define " << m << "_NUM_OUTPUTS " << model.graph.outputs.size() << "u\n";
  out << "#define " << m << "_NUM_OPS " << model.calls.size() << "u /* operators of one run */\n\n";
}
}  // namespace

std::string emit_api_header(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  std::ostringstream out;
  out << kGeneratedBanner;
  emit_banner(out, model);
  out << "#ifndef " << n.macro << "_H\n#define " << n.macro << "_H\n\n";
  out << "#include <stddef.h>\n#include <stdint.h>\n\n#include \"microaot/"
      << (is_graph(model) ? "graph.h" : "executor.h") << "\"\n\n";
  out << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  emit_sizes(out, model);
  emit_io_macros(out, model, "INPUT", model.graph.inputs);
  emit_io_macros(out, model, "OUTPUT", model.graph.outputs);
  out << "\n/* One instance. Owned by the caller; treat the fields as private. */\n";
  if (is_graph(model)) {
    emit_graph_context(out, model);
  } else {
    out << "typedef struct " << p << "_context {\n  microaot_context core;\n  microaot_slot slots["
        << context_slots(model) << "]; /* inputs" << (model.options.io_in_arena ? "" : ", then outputs")
        << " */\n} " << p << "_context;\n\n";
  }
  emit_prototypes(out, n);
  if (is_graph(model)) emit_graph_prototypes(out, n);
  if (!model.options.io_in_arena) emit_bind_prototypes(out, n);
  if (model.options.interface_api_c) emit_tvm_interface(out, model);
  out << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << n.macro << "_H */\n";
  return out.str();
}

}  // namespace microaot
