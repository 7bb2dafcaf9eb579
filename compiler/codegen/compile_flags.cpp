// The options that shaped an output folder, written back as `microaot compile` flags for NAME.h and
// report.json: with the same model and these flags, microaot writes the same files.
#include "codegen/emit.h"
#include "ir/custom_op.h"

namespace microaot {

// Quoted with single quotes in the flags, so the text stays the same in a C comment, JSON and a shell.
std::string target_flag(const Target& t) {
  std::string text = t.fast_kernels_requested ? "cmsis-nn, c" : "c";
  if (t.is_generic()) return text;
  const Target defaults = parse_target("c -mcpu=" + t.cpu);
  text += " -mcpu=" + t.cpu;
  if (defaults.dsp && !t.dsp) text += "+nodsp";
  if (defaults.mve && !t.mve && t.dsp) text += "+nomve";
  if (defaults.fpu != t.fpu) text += "+nofp";
  return text;
}

std::string compile_flags_text(const CompileOptions& o) {
  std::string text = "--module-name " + o.module_name + " --target '" + target_flag(o.target) + "' --executor " +
                     o.executor + " --planner " + o.planner + " --alignment " + std::to_string(o.alignment) +
                     " --io-in-arena " + (o.io_in_arena ? "on" : "off");
  if (o.target.optimize_size || o.target.optimize_balanced) text += std::string(" --optimize ") + optimize_name(o.target);
  if (o.target.compress_bits != default_compress_bits(o.target) ||
      o.target.compress_fast_only != default_compress_fast_only(o.target)) {
    text += " --compress-weights " + compress_weights_name(o.target.compress_bits);
  }
  if (o.cluster_values > 0) text += " --cluster-weights " + std::to_string(o.cluster_values);
  if (o.interface_api_c) text += " --interface-api c";
  if (o.ram_budget > 0) text += " --ram-budget " + std::to_string(o.ram_budget);
  if (o.flash_budget > 0) text += " --flash-budget " + std::to_string(o.flash_budget);
  for (const PoolOption& pool : o.pools) {
    text += " --pool " + pool.name + ":" + std::to_string(pool.size) + ":" + std::to_string(pool.alignment);
  }
  // The header by its file name (the folder's copy): a path could hold any text, the name is checked.
  for (const CustomOpBinding& b : o.custom_ops) {
    text += " --custom-op " + b.name + "=" + custom_header_file_name(b) + ",function=" + b.function +
            ",scratch=" + std::to_string(b.scratch_bytes);
  }
  return text;
}

}  // namespace microaot
