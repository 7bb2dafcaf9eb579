// The whole compile, end to end: .tflite bytes -> IR -> passes -> lowered kernel calls -> memory plan.
// The result is everything codegen needs; nothing here touches the file system.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer.h"
#include "ops/op_handler.h"

namespace microaot {

struct CompileOptions {
  std::string module_name = "model";  // prefix of every generated symbol and file
  std::string mcpu;                   // from --target "c -mcpu=..."; empty = generic C
  std::string executor = "aot";
  bool interface_api_c = false;  // also emit tvmgen_<name>_run()
  std::string planner = "greedy_by_size";
  int64_t alignment = 16;         // byte alignment of every planned buffer and of the arena
  std::string dump_ir_after;      // pass name or "all"
  std::string source_name;        // the model file name, for banners
};

struct CompiledModel {
  CompileOptions options;
  Graph graph;                     // after the passes; ops are the schedule
  std::vector<KernelCall> calls;   // parallel to graph.ops
  std::vector<int64_t> macs;       // parallel to graph.ops
  std::vector<BufferRecord> buffers;
  MemoryPlan plan;
};

// Throws CompileError for anything wrong with the model or the options.
CompiledModel compile_model(const std::vector<uint8_t>& tflite_bytes, const CompileOptions& options);

// Byte offset of a planned (non-constant) tensor in the arena, following aliases.
int64_t arena_offset(const CompiledModel& model, int tensor_id);

}  // namespace microaot
