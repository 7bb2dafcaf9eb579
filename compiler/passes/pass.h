// A pass rewrites the graph in place and returns whether it changed anything. The pipeline runs passes
// in a fixed, straight-line order (pipeline.cpp) and can dump the IR after any of them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace microaot {

struct PassContext {
  std::string dump_after;            // pass name, "all", or empty
  std::ostream* dump_stream = nullptr;  // where dumps go (stderr by default)
  // Frame windows may become ring buffers, whose window address changes from run to run: the AOT executor
  // computes it in the generated code; the graph executor's blob holds fixed offsets only.
  bool ring_windows = true;
};

// Each pass lives in its own file of the same name.
bool fold_constants(Graph& graph, PassContext& ctx);       // ops of constants computed now (constant_evaluators.h)
bool check_operators(Graph& graph, PassContext& ctx);       // every op passes its handler's check()
// "" when the op takes its data input's type (op_list.def), else the line check_operators prints.
std::string unsupported_type(const Graph& graph, const Op& op);
bool fold_constant_views(Graph& graph, PassContext& ctx);  // RESHAPE/SQUEEZE of a constant becomes a constant
bool fold_pad(Graph& graph, PassContext& ctx);          // PAD of zero points before a conv becomes its explicit padding
bool merge_quantize(Graph& graph, PassContext& ctx);    // a QUANTIZE that changes no bit leaves the graph
bool alias_views(Graph& graph, PassContext& ctx);        // RESHAPE/SQUEEZE output shares its input's storage; op dropped
bool ring_windows(Graph& graph, PassContext& ctx);         // a variable's frame window: a ring buffer, no copies
bool alias_variable_reads(Graph& graph, PassContext& ctx);  // a READ_VARIABLE read before the next write: a view
bool remove_dead_code(Graph& graph, PassContext& ctx);      // ops nobody reads, constants nobody uses
bool schedule_for_memory(Graph& graph, PassContext& ctx);   // op order with the smallest peak of live bytes

// Runs all passes in order, dumping where asked.
void run_pass_pipeline(Graph& graph, PassContext& ctx);

// Names of the passes in pipeline order (for --dump-ir-after).
std::vector<std::string> pass_names();

}  // namespace microaot
