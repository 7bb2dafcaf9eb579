// network_info.txt (for people) and report.json (for tools): the same figures, two forms.
#include <algorithm>
#include <any>
#include <cmath>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "codegen/emit.h"
#include "codegen/graph_blob.h"
#include "codegen/source_levels.h"
#include "ir/custom_op.h"
#include "ir/ir_dump.h"
#include "compile/plan_bands.h"
#include "compile/plan_memory.h"
#include "kernels/select_kernels.h"
#include "memory/liveness.h"
#include "memory/plan_report.h"
#include "microaot/graph.h"
#include "ops/palette_weights.h"

namespace microaot {

namespace {
int64_t live_bytes_at(const CompiledModel& model, int step) {
  int64_t total = 0;
  for (const BufferRecord& b : model.buffers) {
    if (b.first_op <= step && step <= b.last_op) total += b.size;
  }
  return total;
}

int64_t param_bytes(const CompiledModel& model, size_t step) {
  int64_t total = 0;
  for (int id : model.calls[step].args) {
    if (id != kNoTensor && model.graph.tensor(id).is_constant) total += model.graph.tensor(id).byte_size();
  }
  const KernelCall& call = model.calls[step];
  const auto* custom = std::any_cast<CustomOpOptions>(&model.graph.ops[step].options);
  total += custom ? static_cast<int64_t>(custom->options.size()) : call.params.array_bytes(*call.info().params);
  return total;
}

// The operator column: the builtin's name, "CUSTOM:<custom_code>" for a CUSTOM op, "SOFTMAX*" for a builtin
// replaced by the user's function.
std::string operator_label(const Op& op) {
  const auto* custom = std::any_cast<CustomOpOptions>(&op.options);
  if (custom == nullptr) return op_kind_name(op.kind);
  return custom->replaced_builtin.empty() ? "CUSTOM:" + custom->binding.name : custom->replaced_builtin + "*";
}

constexpr const char* kPackedKernelsHeader = "microaot/kernels/packed.h";

// "user" for a --custom-op function (built by the user); "dsp-packed" for a packed kernel (microaot/kernels/
// packed.h: C written around the DSP extension's SIMD instructions, chosen only where the target has them; its
// own source, in kernels/dsp/); else the kernel's implementation ("portable", "dsp").
std::string call_implementation(const KernelCall& call) {
  if (call.custom) return "user";
  return call.info().header == kPackedKernelsHeader ? "dsp-packed" : implementation_isa(call.source);
}

// report.json's entry for an op bound with --custom-op: what the user bound; null for the others.
nlohmann::json custom_entry(const Op& op) {
  const auto* custom = std::any_cast<CustomOpOptions>(&op.options);
  if (custom == nullptr) return nullptr;
  return {{"name", custom->binding.name}, {"function", custom->binding.function},
          {"header", custom_header_output_path(custom->binding)}, {"replaces_builtin", !custom->replaced_builtin.empty()},
          {"options_bytes", custom->options.size()}, {"scratch_bytes", custom->binding.scratch_bytes}};
}

int64_t total_macs(const CompiledModel& model) {
  int64_t total = 0;
  for (int64_t m : model.macs) total += m;
  return total;
}

std::string shapes_of(const CompiledModel& model, const std::vector<int>& ids, bool skip_constants) {
  std::string text;
  for (int id : ids) {
    if (id == kNoTensor || (skip_constants && model.graph.tensor(id).is_constant)) continue;
    const Tensor& t = model.graph.tensor(id);
    text += (text.empty() ? "" : " ") + std::string(dtype_short_name(t.dtype)) + format_shape(t.shape);
  }
  return text;
}

nlohmann::json io_json(const CompiledModel& model, const std::vector<int>& ids) {
  nlohmann::json list = nlohmann::json::array();
  for (int id : ids) {
    const Tensor& t = model.graph.tensor(id);
    nlohmann::json entry = {{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"shape", t.shape},
                            {"bytes", t.byte_size()}};
    // Outside the arena (--io-in-arena off) a buffer bound per context holds it: no offset.
    entry["offset"] = io_slot(model, id) >= 0 ? nlohmann::json() : nlohmann::json(arena_offset(model, id));
    if (t.quant.scale.size() == 1) {
      entry["scale"] = t.quant.scale[0];
      entry["zero_point"] = t.quant.zero_point[0];
    }
    list.push_back(entry);
  }
  return list;
}
nlohmann::json planners_json(const CompiledModel& model) {
  nlohmann::json list = nlohmann::json::array();
  for (const MemoryPlan& plan : model.planner_results) {
    list.push_back(
        {{"planner", plan.planner}, {"arena_bytes", plan.arena_size}, {"proven_optimal", plan.proven_optimal}});
  }
  return list;
}

nlohmann::json pools_json(const CompiledModel& model) {
  nlohmann::json list = nlohmann::json::array();
  for (const PoolReport& pool : pool_layout(model).pools) {
    list.push_back({{"name", pool.name}, {"size", pool.size}, {"used_bytes", pool.used},
                    {"planner", pool.planner}, {"symbol", pool.symbol}});
  }
  return list;
}

// The in-place reuse the plan relies on: output buffers that share bytes with an input dying at their op.
nlohmann::json in_place_json(const CompiledModel& model) {
  nlohmann::json list = nlohmann::json::array();
  for (const OverlapPermit& p : model.permits) {
    const int64_t shared = overlap_bytes(model, p.output, p.input);
    if (shared == 0) continue;
    nlohmann::json entry = {{"step", model.buffers[p.output].first_op},
                            {"output_tensor", model.buffers[p.output].tensor_id},
                            {"input_tensor", model.buffers[p.input].tensor_id},
                            {"shift", model.plan.offsets[p.output] - model.plan.offsets[p.input]},
                            {"shared_bytes", shared}};
    if (!model.pool_of.empty()) entry["pool"] = model.options.pools[model.pool_of[p.output]].name;
    list.push_back(entry);
  }
  return list;
}

// The window of the ring buffer stored in `storage` (passes/ring_windows.cpp), or nullptr.
const RingWindow* ring_in(const Graph& graph, int storage) {
  for (const Tensor& t : graph.tensors) {
    if (t.ring.position >= 0 && t.alias_of == storage) return &t.ring;
  }
  return nullptr;
}

nlohmann::json persistent_json(const CompiledModel& model) {
  nlohmann::json list = nlohmann::json::array();
  for (const PersistentBuffer& p : model.persistent) {
    nlohmann::json entry = {{"tensor", p.tensor_id}, {"name", model.graph.tensor(p.tensor_id).name},
                            {"offset", persistent_base(model) + p.offset}, {"size", p.size},
                            {"bytes", model.graph.tensor(p.tensor_id).byte_size()}};  // size: aligned
    if (const RingWindow* ring = ring_in(model.graph, p.tensor_id)) {
      entry["ring"] = {{"slots", ring->slots}, {"unit_bytes", ring->unit_bytes}, {"position_tensor", ring->position}};
    }
    list.push_back(entry);
  }
  return list;
}

nlohmann::json peak_tensors_json(const CompiledModel& model) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t i : peak_buffers(model.buffers)) list.push_back(model.buffers[i].tensor_id);
  return list;
}


// The RAM lines of network_info.txt: each memory, then the total they add up to.
void write_ram_lines(std::ostringstream& out, const CompiledModel& model) {
  const PoolLayout layout = pool_layout(model);
  if (layout.empty()) out << "arena (RAM):         " << model.plan.arena_size << " bytes\n";
  for (size_t k = 0; k < layout.pools.size(); ++k) {
    const PoolReport& pool = layout.pools[k];
    out << std::left << std::setw(21) << (k == 0 ? "arena (RAM):" : "pool " + pool.name + " (RAM):") << std::right
        << pool.used << " bytes (" << (k == 0 ? "pool " + pool.name + ", " : "") << pool.size << " available)\n";
  }
  if (!model.options.io_in_arena) out << "I/O buffers (RAM):   " << io_buffer_bytes_outside(model) << " bytes\n";
  if (!model.persistent.empty()) {
    out << "persistent (RAM):    " << persistent_base(model) - model.plan.arena_size + model.persistent_bytes
        << " bytes (state in " << model.persistent.size() << " buffers, in the arena after the activations;\n"
        << "                     a run copies " << state_copy_bytes_per_step(model) << " bytes of it)\n";
  }
  out << "arena header (RAM):  " << arena_header_bytes(model) << " bytes (the arena's last writer; init needs "
      << arena_buffer_bytes(model) << " bytes)\n";
  if (static_record_bytes(model) != 0) {
    out << "static record (RAM): " << static_record_bytes(model) << " bytes (the last writer of the static buffers)\n";
  }
  out << "contexts (RAM):      " << contexts_bytes(model) << " bytes (on a 32-bit target)\n";
  out << "static RAM in all:   " << static_ram_bytes(model) << " bytes\n";
}
}  // namespace

PoolLayout pool_layout(const CompiledModel& model) {
  PoolLayout layout;
  if (model.pool_of.empty()) return layout;
  for (size_t k = 0; k < model.pool_used.size(); ++k) {
    const PoolOption& pool = model.options.pools[k];
    layout.pools.push_back({pool.name, pool.size, model.pool_used[k],
                            k < model.pool_planners.size() ? model.pool_planners[k] : "",
                            k == 0 ? module_names(model).prefix + "_static_arena" : pool_symbol(model, k)});
  }
  layout.pool_of = model.pool_of;
  return layout;
}

namespace {

// One line per step whose handler chose between implementations (the int8 matrix products): what it chose
// for this layer and why.
void write_specialisations(std::ostream& out, const CompiledModel& model) {
  bool first = true;
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const std::string& chosen = model.calls[step].specialisation;
    if (chosen.empty()) continue;
    if (first) out << "\nspecialisation (step: kernel, blocking, why):\n";
    first = false;
    out << std::left << std::setw(5) << step << chosen << "\n";
  }
}

// With --flash-budget: the estimate it was held to and, at speed, which packed layers were widened to int16.
void write_flash_fit(std::ostream& out, const CompiledModel& model) {
  const FlashFit& fit = model.flash_fit;
  if (fit.budget <= 0) return;
  out << "\nflash budget: " << fit.budget << " bytes; estimate " << fit.weights_bytes + fit.code_bytes << " (weights "
      << fit.weights_bytes << " + code estimate " << fit.code_bytes
      << (fit.band_code_bytes > 0 ? ", of which the fused bands' " + std::to_string(fit.band_code_bytes) : "") << ")\n";
  if (!fit.per_layer) return;
  const auto list = [&](const char* title, const std::vector<WidenCandidate>& layers) {
    out << title << (layers.empty() ? " none" : "") << "\n";
    for (const WidenCandidate& c : layers) {
      out << "  step " << c.step << ": " << c.bytes << " B more flash, about " << c.instructions
          << " instructions fewer per inference\n";
    }
  };
  list("widened to int16 weights (the most instructions saved per byte first):", fit.widened);
  list("kept int8 to fit the budget:", fit.kept_int8);
}

nlohmann::json widen_json(const std::vector<WidenCandidate>& layers) {
  nlohmann::json rows = nlohmann::json::array();
  for (const WidenCandidate& c : layers) rows.push_back({{"step", c.step}, {"bytes", c.bytes}, {"instructions_saved", c.instructions}});
  return rows;
}

// One line per read of a constant TFLM's DECODE produced (Tensor::lut_bits): its palette kernel, or the plain
// constant it became and the flash that costs beside TFLM's indices and tables.
void write_tflm_decoded(std::ostream& out, const CompiledModel& model) {
  std::string lines;
  for (size_t step = 0; step < model.graph.ops.size(); ++step) {
    const Op& op = model.graph.ops[step];
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (op.inputs[i] < 0) continue;
      const Tensor& t = model.graph.tensor(op.inputs[i]);
      if (t.lut_bits == 0) continue;
      const PaletteFacts facts = palette_facts(model.graph, model.calls[step]);
      lines += "  '" + t.name + "' (" + std::to_string(t.lut_bits) + "-bit indices, TFLM " +
               std::to_string(t.lut_bytes) + " B), read by step " + std::to_string(step) + " " +
               describe_op(model.graph, op) + ": ";
      lines += facts.bits > 0 && i == 1
                   ? "decoded in its palette kernel (" + std::to_string(facts.bits) + "-bit indices, " +
                         (facts.shared ? "one table" : "per-channel tables") + ", " + std::to_string(facts.bytes) +
                         " B)\n"
                   : "expanded at compile time into a plain constant of " + std::to_string(t.byte_size()) + " B (" +
                         (t.byte_size() >= t.lut_bytes ? "+" : "") + std::to_string(t.byte_size() - t.lut_bytes) +
                         " B of flash beside TFLM's indices and tables)\n";
    }
  }
  if (!lines.empty()) out << "\nTFLM-compressed constants (TFLM_DECODE folded at compile time, exact):\n" << lines;
}

// The palettised layers' bytes (--compress-weights) and the weights --cluster-weights changed.
void write_compressed_weights(std::ostream& out, const CompiledModel& model) {
  int64_t layers = 0, before = 0, after = 0;
  for (const KernelCall& call : model.calls) {
    const PaletteFacts facts = palette_facts(model.graph, call);
    if (facts.bits == 0) continue;
    ++layers;
    before += facts.int8_bytes;
    after += facts.bytes;
  }
  if (layers > 0) {
    out << "\ncompressed weights (--compress-weights " << compress_weights_name(model.options.target.compress_bits)
        << (model.options.target.compress_fast_only ? ", where the DSP palette kernel pays" : "") << "): " << layers << " layers palettised, int8 " << before << " B -> " << after << " B (indices and tables)\n";
  }
  if (model.options.cluster_values > 0) out << "\n" << clustered_weights_text(model.clustered, model.options.cluster_values);
  write_tflm_decoded(out, model);
}

void write_size_sources(std::ostream& out, const CompiledModel& model) {
  const SourceLevels levels = source_levels(model);
  if (levels.size.empty()) return;
  out << "\nbuilt for size (-Os after your -O; the executor's API, the step function, and kernels whose layers do\n"
         "under 1/1000 of the work):";
  for (const std::string& path : levels.size) out << " " << path;
  out << "\n";
}

}  // namespace

std::string emit_network_info(const CompiledModel& model) {
  std::ostringstream out;
  out << "network: " << module_names(model).prefix << " (" << model.options.source_name << ")\n";
  out << "inputs:  " << shapes_of(model, model.graph.inputs, false) << "\n";
  out << "outputs: " << shapes_of(model, model.graph.outputs, false) << "\n";
  // The ONNX frontend's notes: layout at the boundary, symbolic dimensions it fixed.
  if (model.graph.description.rfind("ONNX", 0) == 0) out << "source: " << model.graph.description << "\n";
  out << "optimize: " << optimize_name(model.options.target) << "\n\n";
  int kernel_width = 8;
  for (const KernelCall& call : model.calls) {
    kernel_width = std::max(kernel_width, static_cast<int>(call.function().size()));
  }
  out << std::left << std::setw(5) << "step" << std::setw(6) << "op" << std::setw(20) << "operator"
      << std::setw(kernel_width + 2) << "kernel" << std::setw(10) << "impl" << std::right << std::setw(12) << "MACs"
      << std::setw(12) << "param B" << std::setw(12) << "live B" << "  shapes\n";
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const Op& op = model.graph.ops[step];
    out << std::left << std::setw(5) << step << std::setw(6) << op.source_index << std::setw(20)
        << operator_label(op) << std::setw(kernel_width + 2) << model.calls[step].function()
        << std::setw(10) << call_implementation(model.calls[step]) << std::right << std::setw(12)
        << model.macs[step] << std::setw(12) << param_bytes(model, step) << std::setw(12)
        << live_bytes_at(model, static_cast<int>(step)) << "  " << shapes_of(model, op.inputs, true) << " -> "
        << shapes_of(model, op.outputs, false) << "\n";
  }
  out << "\nparam B: constant bytes the kernel reads (weights, biases, per-channel arrays); live B: bytes of the\n"
      << "buffers live during the step (tensors and kernel scratch; a buffer written over its input counts apart).\n";
  write_specialisations(out, model);
  write_flash_fit(out, model);
  write_compressed_weights(out, model);
  write_size_sources(out, model);
  out << "\ntotal MACs:          " << total_macs(model) << "\n";
  out << "weights (flash):     " << weights_bytes(model) << " bytes\n";
  write_ram_lines(out, model);
  return out.str();
}

namespace {
// --cluster-weights: the weights changed, per tensor.
nlohmann::json clustered_json(const CompiledModel& model) {
  return {{"values", model.options.cluster_values}, {"weights_changed", true}, {"layers", clustered_weights_json(model.clustered)}};
}

// --executor graph: what this folder's firmware accepts of a blob (compile --blob-only --for, inspect BLOB
// --firmware): the blob version it reads, the settings that chose its kernels, and the kernels it links.
nlohmann::json firmware_json(const CompiledModel& model) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelInfo* kernel : linked_kernels(model)) kernels.push_back({{"id", kernel->id}, {"kernel", kernel->symbol}});
  return {{"blob_version", MICROAOT_BLOB_VERSION},
          {"target", target_flag(model.options.target)},
          {"optimize", optimize_name(model.options.target)},
          {"inputs", model.graph.inputs.size()},
          {"kernels", kernels}};
}
// The fused bands (compile/plan_bands.h): each chain's steps, band height and line buffers.
nlohmann::json bands_json(const CompiledModel& model) {
  nlohmann::json chains = nlohmann::json::array();
  for (const FusedChain& c : model.chains) {
    nlohmann::json lines = nlohmann::json::array();
    for (size_t i = 0; i + 1 < c.layers.size(); ++i) {
      lines.push_back({{"tensor", model.graph.storage_of(model.graph.ops[c.first_step + i].outputs[0])},
                       {"rows", c.schedule.line_rows[i]},
                       {"of_rows", c.layers[i].output_rows},
                       {"bytes", c.schedule.line_rows[i] * c.layers[i].output_row_bytes}});
    }
    nlohmann::json layers = nlohmann::json::array();  // what the cost model counts, per layer
    const std::vector<BandLayerWork> work = band_layer_work(c.layers, c.schedule);
    for (size_t i = 0; i < c.layers.size(); ++i) {
      const BandLayer& l = c.layers[i];
      layers.push_back({{"step", c.first_step + static_cast<int>(i)}, {"calls", work[i].calls},
                        {"halo_bytes", work[i].halo_bytes}, {"moved_bytes", work[i].moved_bytes},
                        {"weights", l.weights}, {"channels", l.channels}, {"output_rows", l.output_rows},
                        {"input_bytes", l.input_rows * l.input_row_bytes},
                        {"family", band_cost_constants(l.family).name}, {"in_place_untiled", l.in_place_untiled},
                        {"estimated_extra_instructions", band_layer_cost(l, work[i])},
                        {"macs", model.macs[static_cast<size_t>(c.first_step) + i]}});
    }
    nlohmann::json adds = nlohmann::json::array();
    for (size_t i = 0; i < c.layers.size(); ++i) {
      if (c.layers[i].skip == kNoSkip) continue;
      adds.push_back({{"step", c.first_step + static_cast<int>(i)},
                      {"skip_tensor", residual_skip_tensor(model, c, static_cast<int>(i))}});
    }
    chains.push_back({{"first_step", c.first_step}, {"last_step", c.last_step}, {"band_rows", c.band_rows},
                      {"every_layer", c.pace == BandPace::kEveryLayer},
                      {"calls", c.schedule.calls}, {"moved_bytes", c.schedule.moved_bytes},
                      {"estimated_extra_instructions", c.extra_instructions}, {"line_buffers", lines},
                      {"residual_adds", adds}, {"layers", layers}});
  }
  return chains;
}

// The variant switches outside the chains the cost model prices, and its estimate of the whole plan.
nlohmann::json variant_switches_json(const CompiledModel& model) {
  nlohmann::json switches = nlohmann::json::array();
  for (const VariantSwitch& v : variant_switches(model)) {
    switches.push_back({{"step", v.step}, {"family", band_cost_constants(v.family).name},
                        {"input_bytes", v.input_bytes}, {"to_in_place", v.to_in_place},
                        {"estimated_extra_instructions", v.estimated}});
  }
  return switches;
}

}  // namespace

namespace {
// The flash estimate, and which packed layers have int16 weights and what they cost and save (estimates).
nlohmann::json flash_fit_json(const FlashFit& fit) {
  int64_t bytes = 0, saved = 0;
  for (const WidenCandidate& c : fit.widened) bytes += c.bytes, saved += c.instructions;
  return {{"budget_bytes", fit.budget},
          {"estimated_weights_bytes", fit.weights_bytes},
          {"estimated_code_bytes", fit.code_bytes},
          {"estimated_band_code_bytes", fit.band_code_bytes},
          {"per_layer", fit.per_layer},
          {"widened", widen_json(fit.widened)},
          {"widened_bytes", bytes},
          {"widened_instructions_saved", saved},
          {"kept_int8", widen_json(fit.kept_int8)}};
}
}  // namespace

std::string emit_report_json(const CompiledModel& model) {
  nlohmann::json ops = nlohmann::json::array();
  for (size_t step = 0; step < model.calls.size(); ++step) {
    const Op& op = model.graph.ops[step];
    ops.push_back({{"step", step}, {"op_index", op.source_index}, {"op", op_kind_name(op.kind)},
                   {"kernel", model.calls[step].function()},
                   {"implementation", call_implementation(model.calls[step])}, {"macs", model.macs[step]},
                   {"param_bytes", param_bytes(model, step)},
                   {"live_bytes", live_bytes_at(model, static_cast<int>(step))}});
    if (model.calls[step].custom) ops.back()["custom"] = custom_entry(op);
    const PaletteFacts palette = palette_facts(model.graph, model.calls[step]);
    if (palette.bits > 0) {
      ops.back()["weights"] = {{"format", "palette" + std::to_string(palette.bits)},
                               {"table", palette.shared ? "shared" : "per_channel"},
                               {"from_tflm_lut", model.graph.tensor(op.inputs[1]).lut_bits > 0},
                               {"int8_bytes", palette.int8_bytes},
                               {"bytes", palette.bytes}};
    }
  }
  const PeakInfo peak = model.lower_bound;
  nlohmann::json report = {
      {"module", module_names(model).prefix},
      {"source", model.options.source_name},
      {"flags", compile_flags_text(model.options)},
      {"optimize", optimize_name(model.options.target)},
      {"arena_bytes", model.plan.arena_size},
      {"persistent_bytes", model.persistent_bytes},
      {"persistent", persistent_json(model)},
      {"state_copy_bytes_per_step", state_copy_bytes_per_step(model)},
      {"arena_header_bytes", arena_header_bytes(model)},
      {"arena_buffer_bytes", arena_buffer_bytes(model)},
      {"ram_bytes", static_ram_bytes(model)},
      {"lower_bound_bytes", peak.bytes},
      {"source_order_bound_bytes", model.source_order_bound_bytes},
      {"peak_step", peak.op},
      {"peak_tensors", peak_tensors_json(model)},
      {"planner", model.plan.planner},
      {"planners", planners_json(model)},
      {"pools", pools_json(model)},
      {"io_in_arena", model.options.io_in_arena},
      {"io_buffer_bytes", io_buffer_bytes_outside(model)},
      {"static_record_bytes", static_record_bytes(model)},
      {"context_bytes", contexts_bytes(model)},
      {"in_place", in_place_json(model)},
      {"alignment", model.options.alignment},
      {"flash_weights_bytes", weights_bytes(model)},
      {"flash_fit", flash_fit_json(model.flash_fit)},
      {"size_built_sources", source_levels(model).size},
      {"macs", total_macs(model)},
      {"op_count", model.calls.size()},
      {"ops", ops},
      {"inputs", io_json(model, model.graph.inputs)},
      {"outputs", io_json(model, model.graph.outputs)},
  };
  report["bands"] = bands_json(model);
  report["band_variant_switches"] = variant_switches_json(model);
  report["bands_estimated_extra_instructions"] = estimated_extra_instructions(model);
  report["tiling_floor_bytes"] = model.tiling_floor_bytes;
  report["untiled_bound_bytes"] = model.untiled_bound_bytes;
  report["executor"] = model.options.executor;
  report["compress_weights"] = compress_weights_name(model.options.target.compress_bits);
  if (model.options.cluster_values > 0) report["cluster_weights"] = clustered_json(model);
  if (is_graph(model)) {  // the blob (weights.c, NAME.blob) and the kernels the firmware links
    const GraphBlob blob = build_graph_blob(model);
    report["blob_bytes"] = blob.bytes.size();
    report["blob_constants_bytes"] = blob.constants_bytes;
    report["blob_description_bytes"] = blob.description_bytes;
    report["linked_kernels"] = linked_kernels(model).size();
    report["firmware"] = firmware_json(model);
  }
  if (!model.options.microaot_version.empty()) report["microaot_version"] = model.options.microaot_version;
  if (!model.options.model_sha256.empty()) report["model_sha256"] = model.options.model_sha256;
  // Tensor names come from the model and need not be UTF-8: replace invalid bytes rather than throw.
  return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace microaot
