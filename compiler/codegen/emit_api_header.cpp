#include <algorithm>
#include <sstream>

#include "codegen/c_text.h"
#include "codegen/emit.h"
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
  out << "\n/* microTVM-style entry (--interface-api c): runs on the static arena with a context of its own.\n"
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
  out << "\n/* --io-in-arena off: init() binds each input/output to a static buffer of the library (none when\n"
      << " * " << n.macro << "_NO_STATIC_ARENA is defined: bind all before run()). These calls bind them to the\n"
      << " * caller's memory instead (e.g. a DMA buffer): zero copy, `size` at least the tensor's, aligned to "
      << n.macro << "_IO_ALIGN. */\n";
  out << "microaot_status " << p << "_bind_input(" << p << "_context *ctx, size_t index, void *buffer, size_t size);\n";
  out << "microaot_status " << p << "_bind_output(" << p
      << "_context *ctx, size_t index, void *buffer, size_t size);\n";
}

void emit_prototypes(std::ostringstream& out, const ModuleNames& n) {
  const std::string& p = n.prefix;
  const std::string ctx = p + "_context *ctx";
  out << "/* Every call returns MICROAOT_STATUS_OK or the first problem found, and changes nothing on failure\n"
      << " * (except init, below). NULL_POINTER: ctx or a required pointer is NULL. BAD_STATE: the call is not\n"
      << " * allowed in the context's state: IDLE (zero-filled, destroyed, or init failed), RUNNING, or no\n"
      << " * completed run to read. A context in memory that is neither zero-filled nor initialized must go\n"
      << " * through init before any other call. */\n\n";
  out << "/* Binds the arena: `arena` of at least " << n.macro << "_ARENA_SIZE bytes aligned to " << n.macro
      << "_ARENA_ALIGN,\n * or NULL for the library's static arena (absent when " << n.macro
      << "_NO_STATIC_ARENA is defined: then NULL_POINTER).\n"
      << " * ARENA_TOO_SMALL / ARENA_MISALIGNED: the arena does not fit. Call it first, on any memory (the context\n"
      << " * need not be zeroed), never on a running context; on failure the context is left IDLE. */\n";
  out << "microaot_status " << p << "_init(" << ctx << ", void *arena, size_t arena_size);\n\n";
  out << "/* Copies `size` bytes into input `index`. BAD_INDEX: index >= " << n.macro << "_NUM_INPUTS; BAD_SIZE:\n"
      << " * size is not exactly the input's size. Outputs of the previous run are no longer readable. */\n";
  out << "microaot_status " << p << "_set_input(" << ctx << ", size_t index, const void *data, size_t size);\n\n";
  out << "/* The in-arena buffer of input `index` for zero-copy fills (e.g. DMA), and its size (`size` may be\n"
      << " * NULL). BAD_INDEX as set_input. Like set_input, makes the previous outputs unreadable. */\n";
  out << "microaot_status " << p << "_input_ptr(" << ctx << ", size_t index, void **data, size_t *size);\n\n";
  out << "/* Runs the model once: a fixed sequence of kernel calls, no allocation. May be called again after a\n"
      << " * run. BAD_STATE when not initialized or already running (reentry, e.g. from a profiling hook). */\n";
  out << "microaot_status " << p << "_run(" << ctx << ");\n\n";
  out << "/* Copies output `index` (exactly `size` bytes, else BAD_SIZE) after a run. BAD_STATE: no run since\n"
      << " * init or since the last input write. BAD_INDEX: index >= " << n.macro << "_NUM_OUTPUTS. */\n";
  out << "microaot_status " << p << "_get_output(" << ctx << ", size_t index, void *data, size_t size);\n\n";
  out << "/* The in-arena buffer of output `index` after a run, and its size (`size` may be NULL); valid until\n"
      << " * the next input write or run. Errors as get_output. */\n";
  out << "microaot_status " << p << "_output_ptr(" << ctx << ", size_t index, const void **data, size_t *size);\n\n";
  out << "/* Releases the arena binding; the context returns to IDLE (again OK when already IDLE).\n"
      << " * BAD_STATE while running. */\n";
  out << "microaot_status " << p << "_destroy(" << ctx << ");\n";
}
}  // namespace

std::string emit_api_header(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  std::ostringstream out;
  out << kGeneratedBanner;
  out << "/* " << p << ": compiled from '" << c_comment_text(model.options.source_name) << "'.\n"
      << " *\n"
      << " * Use: " << p << "_init() binds an arena (NULL = the static one); write each input with\n"
      << " * " << p << "_set_input() or through " << p << "_input_ptr(); " << p << "_run(); read each output with\n"
      << " * " << p << "_get_output() or " << p << "_output_ptr(). Inputs live in the arena and may be\n"
      << " * overwritten by run(), so write them again before every run. Outputs stay valid until the next\n"
      << " * input write or run. States: IDLE -init-> READY -run-> DONE; calls in the wrong state return\n"
      << " * MICROAOT_STATUS_BAD_STATE. There is no global mutable state except the optional static arena.\n"
      << " * Not thread-safe: use one context from one thread (or interrupt) at a time; the RUNNING state\n"
      << " * catches reentry from the same thread but is not a lock. Input data is not checked: any bytes are\n"
      << " * a valid input. See docs/errors.md of microaot for what is checked where. */\n";
  out << "#ifndef " << n.macro << "_H\n#define " << n.macro << "_H\n\n";
  out << "#include <stddef.h>\n#include <stdint.h>\n\n#include \"microaot/status.h\"\n\n";
  out << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  out << "/* Bytes of working memory (activations) the model needs, and their required alignment. */\n";
  out << "#define " << n.macro << "_ARENA_SIZE " << model.plan.arena_size << "u\n";
  out << "#define " << n.macro << "_ARENA_ALIGN " << model.options.alignment << "u\n";
  if (!model.options.io_in_arena) {
    out << "/* Inputs and outputs live outside the arena, in buffers bound to the context. */\n";
    out << "#define " << n.macro << "_IO_ALIGN " << io_alignment(model) << "u\n";
  }
  out << "\n";
  out << "#define " << n.macro << "_NUM_INPUTS " << model.graph.inputs.size() << "u\n";
  out << "#define " << n.macro << "_NUM_OUTPUTS " << model.graph.outputs.size() << "u\n\n";
  emit_io_macros(out, model, "INPUT", model.graph.inputs);
  emit_io_macros(out, model, "OUTPUT", model.graph.outputs);
  out << "\ntypedef enum {\n  " << n.macro << "_STATE_IDLE = 0,\n  " << n.macro << "_STATE_READY,\n  " << n.macro
      << "_STATE_RUNNING,\n  " << n.macro << "_STATE_DONE\n} " << p << "_state;\n\n";
  out << "/* One instance. Owned by the caller; treat the fields as private. */\n";
  out << "typedef struct " << p << "_context {\n  " << p << "_state state;\n  uint8_t *arena;\n";
  if (!model.options.io_in_arena) {
    out << "  uint8_t *io[" << model.graph.inputs.size() + model.graph.outputs.size()
        << "]; /* inputs, then outputs (--io-in-arena off) */\n";
  }
  out << "} " << p << "_context;\n\n";
  emit_prototypes(out, n);
  if (!model.options.io_in_arena) emit_bind_prototypes(out, n);
  if (model.options.interface_api_c) emit_tvm_interface(out, model);
  out << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << n.macro << "_H */\n";
  return out.str();
}

}  // namespace microaot
