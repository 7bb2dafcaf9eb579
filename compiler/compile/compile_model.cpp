#include "compile/compile_model.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "compile/choose_variants.h"
#include "frontend/model_reader.h"
#include "compile/plan_memory.h"
#include "kernels/bind_call.h"
#include "kernels/tabulate.h"
#include "memory/planners.h"
#include "passes/pass.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
KernelCall lower_op(const CompiledModel& model, const Op& op) {
  const OpHandler& handler = op_handler(op.kind);
  MICROAOT_CHECK(handler.lower != nullptr, "view ops must be removed by the passes before lowering");
  try {
    return tabulated(handler.lower(model.graph, op), model.options.target);
  } catch (const CompileError& e) {  // limits met while computing constants (quant_math): name the op
    const std::string name = describe_op(model.graph, op);
    if (std::string(e.what()).rfind(name, 0) == 0) throw;
    throw CompileError(name + ": " + e.what());
  }
}

// Every op lowered to its generic stem, then the variants chosen (choose_variants), then each call bound to its
// kernel.
void lower_ops(CompiledModel& model, int64_t band_code_bytes) {
  for (size_t step = 0; step < model.graph.ops.size(); ++step) {
    model.calls.push_back(lower_op(model, model.graph.ops[step]));
    model.macs.push_back(op_handler(model.graph.ops[step].kind).macs(model.graph, model.graph.ops[step]));
  }
  const std::vector<KernelCall> lowered = model.calls;
  const auto choose = [&](const std::set<size_t>& int8_steps) {
    std::vector<KernelCall> calls = lowered;
    choose_variants(model.graph, model.graph.ops, model.options.target, calls, int8_steps);
    return calls;
  };
  model.calls = choose({});
  model.flash_fit = fit_flash_budget(model.graph, model.macs, model.options.flash_budget,
                                     model.options.target.packed_int16_weights(), choose, model.calls, band_code_bytes);
  for (size_t step = 0; step < model.calls.size(); ++step) {
    if (!model.calls[step].custom) bind_kernel_call(model.graph, model.graph.ops[step], model.calls[step]);
  }
}

// Lowers and plans; under a flash budget, when the plan's fused bands add code the first fit did not count
// (their calls are unrolled in NAME.c), fits and plans once more with that code reserved. The widening does
// not change the plan's bands, so the second plan's estimate is the reserve; the check stays for safety.
void lower_and_plan(CompiledModel& model) {
  const CompiledModel unlowered = model;
  lower_ops(model, 0);
  plan_model_memory(model);
  const FlashFit& fit = model.flash_fit;
  const int64_t band_code = estimated_band_code_bytes(model.chains);
  if (fit.budget <= 0 || fit.weights_bytes + fit.code_bytes + band_code <= fit.budget) {
    model.flash_fit.code_bytes += band_code;
    model.flash_fit.band_code_bytes = band_code;
    return;
  }
  model = unlowered;
  lower_ops(model, band_code);
  plan_model_memory(model);
  const int64_t replanned = estimated_band_code_bytes(model.chains);
  if (replanned > band_code) {
    throw CompileError("Flash budget exceeded: the fused bands' code estimate grew from " + std::to_string(band_code) +
                       " to " + std::to_string(replanned) + " bytes when refitted; give --tiling off or a larger " +
                       "--flash-budget");
  }
}

// The generated API exposes inputs and outputs as arena buffers: there must be some, and none constant.
void check_interface(const Graph& graph) {
  if (graph.inputs.empty()) throw CompileError("the model has no inputs; microaot needs at least one");
  if (graph.outputs.empty()) throw CompileError("the model has no outputs; microaot needs at least one");
  for (int id : graph.outputs) {
    if (graph.tensor(graph.storage_of(id)).is_constant) {
      throw CompileError("graph output " + describe_tensor(graph, id) +
                         " is a constant; outputs computed at compile time are not supported");
    }
  }
}

// The graph executor keeps every buffer in one arena and calls only registry kernels (docs/executors.md).
void check_graph_options(const CompileOptions& options) {
  const auto refuse = [](const std::string& what) {
    throw UsageError("--executor graph does not take " + what + " (use --executor aot)");
  };
  if (options.pools.size() > 1) refuse("--pool: its buffers all live in the arena");
  if (!options.io_in_arena) refuse("--io-in-arena off: its inputs and outputs live in the arena");
  if (!options.custom_ops.empty()) refuse("--custom-op: a blob names registry kernels only");
  if (options.interface_api_c) refuse("--interface-api c");
  if (!options.shared_arena.empty()) refuse("several models: compile each to its own blob");
  if (options.alignment < 4) refuse("--alignment below 4: the interpreter reads 32-bit words");
}
}  // namespace

void check_compile_options(const CompileOptions& options) {
  const int64_t a = options.alignment;
  if (a < 1 || a > 4096 || (a & (a - 1)) != 0) {
    throw UsageError("alignment must be a power of two between 1 and 4096, got " + std::to_string(a));
  }
  if (!options.dump_ir_after.empty() && options.dump_ir_after != "all") {
    std::string known;
    bool found = false;
    for (const std::string& name : pass_names()) {
      found = found || options.dump_ir_after == name;
      known += (known.empty() ? "" : ", ") + name;
    }
    if (!found) {
      throw UsageError("--dump-ir-after: unknown pass '" + options.dump_ir_after + "' (passes: " + known + ", all)");
    }
  }
  if (options.executor != "aot" && options.executor != "graph") {
    throw UsageError("executor '" + options.executor + "' is not supported (aot, the default, or graph)");
  }
  if (options.executor == "graph") check_graph_options(options);
  if (options.executor != "graph" && !options.link_kernels.empty()) {
    throw UsageError("--link-kernels is for --executor graph: an AOT library links exactly its model's kernels");
  }
  if (find_planner(options.planner) == nullptr) {
    std::string known;
    for (const auto& [name, planner] : planners()) known += (known.empty() ? "" : ", ") + name;
    throw UsageError("unknown memory planner '" + options.planner + "' (planners: " + known + ")");
  }
}

CompiledModel compile_model(const std::vector<uint8_t>& tflite_bytes, const CompileOptions& options) {
  check_compile_options(options);
  CompiledModel model;
  model.options = options;
  if (options.cluster_values > 0) {
    model.clustered = cluster_model_weights(tflite_bytes, options.cluster_values, options.custom_ops);
  }
  OnnxReadOptions onnx;
  onnx.input_shapes = options.input_shapes;
  onnx.nhwc_io = options.nhwc_io;
  model.graph = read_model(options.cluster_values > 0 ? model.clustered.tflite : tflite_bytes, options.custom_ops, onnx);
  PassContext ctx;
  ctx.dump_after = options.dump_ir_after;
  ctx.ring_windows = options.executor == "aot";
  run_pass_pipeline(model.graph, ctx);
  check_interface(model.graph);
  lower_and_plan(model);
  choose_kernels(model);
  return model;
}

size_t buffer_of_tensor(const CompiledModel& model, int tensor_id) {
  const int owner = model.graph.storage_of(tensor_id);
  for (size_t i = 0; i < model.buffers.size(); ++i) {
    if (model.buffers[i].kind == BufferKind::kTensor && model.buffers[i].tensor_id == owner) return i;
  }
  MICROAOT_CHECK(false, "tensor " + std::to_string(tensor_id) + " has no planned buffer");
}

int64_t persistent_base(const CompiledModel& model) { return align_up(model.plan.arena_size, model.options.alignment); }

const PersistentBuffer* persistent_of(const CompiledModel& model, int tensor_id) {
  const int owner = model.graph.storage_of(tensor_id);
  for (const PersistentBuffer& p : model.persistent) {
    if (p.tensor_id == owner) return &p;
  }
  return nullptr;
}

int64_t state_copy_bytes_per_step(const CompiledModel& model) {
  int64_t bytes = 0;
  for (const Op& op : model.graph.ops) {
    if (op.kind == OpKind::ReadVariable) bytes += model.graph.tensor(op.outputs[0]).byte_size();
    if (const auto written = op_handler(op.kind).state_copy_bytes) {
      bytes += written(model.graph, op);
      continue;
    }
    for (int id : op.outputs) {
      if (id != kNoTensor && persistent_of(model, id) != nullptr) bytes += model.graph.tensor(id).byte_size();
    }
  }
  return bytes;
}

int64_t arena_offset(const CompiledModel& model, int tensor_id) {
  if (const PersistentBuffer* p = persistent_of(model, tensor_id)) return persistent_base(model) + p->offset;
  return model.plan.offsets[buffer_of_tensor(model, tensor_id)];
}

}  // namespace microaot
