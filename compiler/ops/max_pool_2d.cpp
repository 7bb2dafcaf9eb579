// MAX_POOL_2D: int8, int16 and float32, any fused activation; see pool_2d_common.h for the shared rules.
#include "ops/op_handler.h"
#include "ops/pool_2d_common.h"

namespace microaot {
namespace {
KernelCall lower(const Graph& graph, const Op& op) { return lower_pool_2d(graph, op, "max_pool_2d"); }
}  // namespace
extern const OpHandler max_pool_2d_handler = {check_pool_2d, lower, pool_2d_window_ops, /*is_view=*/false,
                                              pool_2d_in_place, read_pool_2d_options};
}  // namespace microaot
