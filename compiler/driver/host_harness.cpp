#include "driver/host_harness.h"

#include <sstream>

#include "codegen/emit.h"
#include "compile/plan_bands.h"

namespace microaot {

namespace {
// Tensors worth dumping: every non-constant tensor that has storage (reshape views included), by its
// .tflite index, so they can be compared with per-layer goldens.
void emit_dump_table(std::ostringstream& out, const CompiledModel& model) {
  const std::string m = module_names(model).macro;
  out << "static const struct { int index; size_t offset; size_t size; } dump_table[] = {\n";
  for (size_t id = 0; id < model.graph.tensors.size(); ++id) {
    const Tensor& t = model.graph.tensors[id];
    // A ring buffer's window moves from run to run: no fixed offset to dump it from.
    if (t.is_constant || t.is_dead || t.source_index < 0 || t.ring.position >= 0) continue;
    // Only tensors in the arena can be dumped (`run --dump-tensors` keeps everything there).
    if (io_slot(model, static_cast<int>(id)) >= 0 || pool_of_tensor(model, static_cast<int>(id)) != 0) continue;
    // A fused band's intermediate exists only as its last rows (run keeps whole layers to dump them).
    if (in_line_buffer(model, static_cast<int>(id))) continue;
    out << "  {" << t.source_index << ", " << m << "_TENSOR_" << model.graph.storage_of(static_cast<int>(id))
        << "_OFFSET, " << t.byte_size() << "u},\n";
  }
  out << "  {-1, 0u, 0u} /* end */\n};\n\n";
}
}  // namespace

std::string host_harness_source(const CompiledModel& model) {
  const ModuleNames n = module_names(model);
  const std::string& p = n.prefix;
  std::ostringstream out;
  out << "/* microaot run: host harness. */\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
      << "#include \"" << p << ".h\"\n#include \"memory_map.h\"\n\n";
  emit_dump_table(out, model);
  out << R"(static int write_file(const char *dir, const char *name, const void *data, size_t size) {
  char path[4096];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size) {
    fprintf(stderr, "harness: cannot write %s\n", path);
    if (f != NULL) fclose(f);
    return 1;
  }
  return fclose(f) != 0;
}

static int read_input(PREFIX_context *ctx, size_t index, const char *path) {
  void *buffer;
  size_t size;
  long length;
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "harness: cannot open input %s\n", path);
    return 1;
  }
  if (PREFIX_input_ptr(ctx, index, &buffer, &size) != MICROAOT_STATUS_OK || fseek(f, 0, SEEK_END) != 0 ||
      (length = ftell(f)) < 0 || (size_t)length != size || fseek(f, 0, SEEK_SET) != 0 ||
      fread(buffer, 1, size, f) != size) {
    fprintf(stderr, "harness: input %u (%s) must hold exactly %u bytes\n", (unsigned)index, path, (unsigned)size);
    fclose(f);
    return 1;
  }
  fclose(f);
  return 0;
}

/* One input set through `ctx`: a model with state starts from where the previous set left it. */
static int run_one(PREFIX_context *ctx, const char *out_dir, int dump, char **inputs) {
  microaot_status status;
  size_t i;
  char name[64];
  for (i = 0; i < MACRO_NUM_INPUTS; ++i) {
    if (read_input(ctx, i, inputs[i]) != 0) return 1;
  }
  status = PREFIX_run(ctx);
  if (status != MICROAOT_STATUS_OK) {
    fprintf(stderr, "harness: run failed: %s\n", PREFIX_status_string(status));
    return 1;
  }
  for (i = 0; i < MACRO_NUM_OUTPUTS; ++i) {
    const void *data;
    size_t size;
    if (PREFIX_output_ptr(ctx, i, &data, &size) != MICROAOT_STATUS_OK) return 1;
    snprintf(name, sizeof name, "output%u.bin", (unsigned)i);
    if (write_file(out_dir, name, data, size) != 0) return 1;
  }
  for (i = 0; dump && i < sizeof dump_table / sizeof dump_table[0]; ++i) {
    if (dump_table[i].index < 0) continue;
    snprintf(name, sizeof name, "t%d.bin", dump_table[i].index);
    if (write_file(out_dir, name, ctx->core.arena + dump_table[i].offset, dump_table[i].size) != 0) return 1;
  }
  return 0;
}

/* harness OUT_DIR DUMP(0|1) BATCH(0|1|fresh) INPUTS...: one set of inputs, or with BATCH several sets
 * through one context (state carried from set to set; `fresh`: reset before each), the outputs of set k
 * going to OUT_DIR/k/ (folders made by the caller). */
int main(int argc, char **argv) {
  PREFIX_context ctx;
  int set, failed = 0;
  int sets = (argc - 4) / (int)MACRO_NUM_INPUTS;
  const int dump = strcmp(argv[2], "1") == 0, batch = strcmp(argv[3], "0") != 0;
  char dir[4096];
  if (argc < 4 + (int)MACRO_NUM_INPUTS || (argc - 4) % (int)MACRO_NUM_INPUTS != 0) {
    fprintf(stderr, "usage: %s OUT_DIR DUMP BATCH INPUT x %u [...]\n", argv[0], (unsigned)MACRO_NUM_INPUTS);
    return 2;
  }
  if (PREFIX_init(&ctx, NULL, 0) != MICROAOT_STATUS_OK) return 1;
  for (set = 0; set < (batch ? sets : 1) && !failed; ++set) {
    snprintf(dir, sizeof dir, "%s/%d", argv[1], set);
    if (strcmp(argv[3], "fresh") == 0 && PREFIX_reset(&ctx) != MICROAOT_STATUS_OK) return 1;
    failed = run_one(&ctx, batch ? dir : argv[1], dump, argv + 4 + set * (int)MACRO_NUM_INPUTS);
  }
  return PREFIX_destroy(&ctx) == MICROAOT_STATUS_OK && !failed ? 0 : 1;
}
)";
  std::string text = out.str();
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"PREFIX", p}, {"MACRO", n.macro}}) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  }
  return text;
}

}  // namespace microaot
