// `microaot run --target cortex-mN`: the same inputs and outputs as on the host, but the library is built
// with arm-none-eabi-gcc into a bare-metal image and run on the emulated board.
#include <cstdio>

#include "driver/commands.h"
#include "driver/custom_op_options.h"
#include "driver/cortex_m.h"
#include "driver/output_dir.h"
#include "support/diagnostics.h"

namespace microaot {

FileSet run_on_cortex_m(const RunCommandOptions& o, const CompiledModel& model, size_t sets) {
  const CortexMBoard& board = cortex_m_board(model.options.target.cpu);
  std::vector<uint8_t> inputs;
  for (const std::string& path : o.inputs) {
    const std::vector<uint8_t> bytes = read_binary_file(path);
    inputs.insert(inputs.end(), bytes.begin(), bytes.end());
  }
  TempDir build;
  if (o.keep_build) build.keep();
  const BuildTools tools{o.cc.empty() ? "arm-none-eabi-gcc" : o.cc, o.cflags, o.kernel_sources,
                         custom_source_files(model.options.custom_ops, o.base.custom_sources)};
  const CortexMImage image = build_cortex_m_image(model, board, tools, build.path());
  const BoardRun run = run_cortex_m_image(board, image, inputs);

  std::vector<int64_t> sizes;
  int64_t per_set = 0;
  for (int id : model.graph.outputs) per_set += sizes.emplace_back(model.graph.tensor(id).byte_size());
  if (run.sets.size() != sets || static_cast<int64_t>(run.outputs.size()) != per_set * static_cast<int64_t>(sets)) {
    throw CompileError("the harness returned " + std::to_string(run.outputs.size()) + " output bytes for " +
                       std::to_string(run.sets.size()) + " set(s); expected " + std::to_string(per_set) +
                       " bytes for each of " + std::to_string(sets));
  }
  FileSet outputs;
  size_t at = 0;
  for (size_t k = 0; k < sets; ++k) {
    const std::string dir = o.batch ? std::to_string(k) + "/" : "";
    for (size_t i = 0; i < sizes.size(); ++i) {
      const char* bytes = reinterpret_cast<const char*>(run.outputs.data() + at);
      outputs[dir + "output" + std::to_string(i) + ".bin"] = std::string(bytes, static_cast<size_t>(sizes[i]));
      at += static_cast<size_t>(sizes[i]);
    }
  }
  if (o.keep_build) std::fprintf(stderr, "microaot: build kept in %s\n", build.path().c_str());
  return outputs;
}

}  // namespace microaot
