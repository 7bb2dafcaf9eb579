// The whole compile, end to end: .tflite bytes -> IR -> passes -> lowered kernel calls -> memory plan.
// The result is everything codegen needs; nothing here touches the file system.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compile/fit_flash.h"
#include "frontend/cluster_weights.h"
#include "ir/custom_op.h"
#include "ir/graph.h"
#include "memory/bands.h"
#include "memory/buffer.h"
#include "memory/liveness.h"
#include "ops/op_handler.h"
#include "target/target.h"

namespace microaot {

// A memory region the planner may place buffers in (--pool NAME:SIZE[:ALIGN]); the first one is the arena.
struct PoolOption {
  std::string name;
  int64_t size = 0;
  int64_t alignment = 16;
};

struct CompileOptions {
  std::string module_name = "model";  // prefix of every generated symbol and file
  Target target;                      // from --target "c -mcpu=..."; generic C by default
  std::string executor = "aot";  // or "graph": an interpreter over a model blob
  std::vector<std::string> link_kernels;  // graph: kernels linked besides the model's ("all", symbols, stems)
  bool interface_api_c = false;  // also emit tvmgen_<name>_run()
  std::string planner = "best";  // a registered planner, or "best" (the smallest plan of all)
  int64_t alignment = 16;         // byte alignment of every planned buffer and of the arena
  int64_t ram_budget = 0;         // bytes the planned RAM may take (arena, pools, I/O buffers); 0 = no limit
  int64_t flash_budget = 0;       // bytes the library's weights and code (estimated) may take; 0 = no limit
  bool tiling = true;             // fused bands allowed (compile/plan_bands.h); --tiling off: whole layers
  bool io_in_arena = true;        // inputs/outputs inside the arena; else in buffers bound per context
  std::vector<PoolOption> pools;  // memories in priority order, the first is the arena; empty = one arena
  std::string dump_ir_after;      // pass name or "all"
  std::string source_name;        // the model file name, for banners
  std::string shared_arena;       // codegen: use this extern arena symbol instead of a static arena of its own
  CustomOpBindings custom_ops;    // --custom-op: operators bound to the user's C functions
  std::map<std::string, std::vector<int32_t>> input_shapes;  // --input-shape: an ONNX input's fixed shape
  bool nhwc_io = false;  // --io-layout nhwc: an ONNX model's rank-4 inputs and outputs in NHWC
  int cluster_values = 0;  // --cluster-weights K: the weights rewritten to K values per channel; 0 = as they are
  // Provenance, filled by the driver and printed in NAME.h and report.json when set (they change no code).
  std::string microaot_version;  // e.g. "0.8.0"
  std::string model_sha256;      // lower-case hex SHA-256 of the .tflite file
};

// A resource variable's place in the persistent region (after the reused activations of the arena): its
// state survives from run to run and no other buffer shares its bytes.
struct PersistentBuffer {
  int tensor_id = -1;
  int64_t offset = 0;  // from the start of the persistent region
  int64_t size = 0;    // bytes, aligned
};

struct CompiledModel {
  CompileOptions options;
  ClusteredModel clustered;        // --cluster-weights: the rewritten model and what changed; else empty
  Graph graph;                     // after the passes; ops are the schedule
  std::vector<KernelCall> calls;   // parallel to graph.ops; final kernels after choose_kernels
  std::vector<KernelVariant> planned_variants;  // parallel to calls: plain, or overlap where the plan needs it
  std::vector<KernelVariant> untiled_variants;  // planned_variants of the plan without chains (plan_bands.h)
  std::vector<int64_t> macs;       // parallel to graph.ops
  FlashFit flash_fit;              // the flash estimate and, at speed under a budget, which layers were widened
  std::vector<BufferRecord> buffers;      // tensors and kernel scratch, as planned
  std::vector<OverlapPermit> permits;     // in-place reuse the planner was allowed
  std::vector<int> scratch_buffer;        // parallel to calls: index into buffers, -1 = none
  MemoryPlan plan;                        // with pools: offsets inside each buffer's pool; arena = pool 0
  std::vector<size_t> pool_of;            // with --pool: per buffer, index into options.pools; else empty
  std::vector<int64_t> pool_used;         // with --pool: bytes used in each pool
  std::vector<std::string> pool_planners;  // with --pool: the planner that placed each pool ("" when empty)
  std::vector<MemoryPlan> planner_results;  // every planner's plan of the same request, for the report
  std::vector<PersistentBuffer> persistent;  // the variables, in tensor order
  int64_t persistent_bytes = 0;              // the persistent region's size
  // The classic bound: the largest sum of simultaneously live tensors without any aliasing, in the
  // chosen op order (lower_bound) and in the model's own op order (source_order_bound).
  PeakInfo lower_bound;
  int64_t source_order_bound_bytes = 0;
  // Fused bands (compile/plan_bands.h): the chains run band by band, in step order; the lowest classic bound
  // the candidates could reach (tiling_floor_bytes) and the instructions the model takes untiled, estimated.
  // With chains, lower_bound is the bound of the buffers as planned (line buffers), untiled_bound_bytes the
  // classic bound of the whole tensors.
  std::vector<FusedChain> chains;
  int64_t untiled_bound_bytes = 0;
  int64_t tiling_floor_bytes = 0;
  int64_t base_instructions = 0;
};

// Throws UsageError for options that are wrong whatever the model (alignment, planner, executor, pass name).
void check_compile_options(const CompileOptions& options);
// Throws CompileError for anything wrong with the model or the options.
CompiledModel compile_model(const std::vector<uint8_t>& tflite_bytes, const CompileOptions& options);

// Index into model.buffers of the record that holds a planned (non-constant) tensor, following aliases.
size_t buffer_of_tensor(const CompiledModel& model, int tensor_id);
// Where the persistent region starts in the arena (after the reused activations; offsets as in the plan).
int64_t persistent_base(const CompiledModel& model);
// The persistent buffer of a variable, or nullptr for another tensor.
const PersistentBuffer* persistent_of(const CompiledModel& model, int tensor_id);
// Bytes of state one run moves: what its steps write into the persistent region, plus what the
// READ_VARIABLE copies that stayed (alias_variable_reads) copy out of it.
int64_t state_copy_bytes_per_step(const CompiledModel& model);
// Byte offset of a planned (non-constant) tensor in its memory (the arena, or its pool), following aliases;
// a variable's is in the persistent region of the arena.
int64_t arena_offset(const CompiledModel& model, int tensor_id);

}  // namespace microaot
