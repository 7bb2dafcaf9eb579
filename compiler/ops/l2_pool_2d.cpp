// L2_POOL_2D: float32 only (TFLM refuses other types), any fused activation; the window rules are the
// other pools' (pool_2d_common.h).
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/pool_2d_common.h"

namespace microaot {
namespace {
void check(const Graph& graph, const Op& op) {
  expect_dtype(graph, op, input_id(graph, op, 0), "input 0", {DType::kFloat32});
  check_pool_2d(graph, op);
}
KernelCall lower(const Graph& graph, const Op& op) { return lower_pool_2d(graph, op, "l2_pool_2d"); }
}  // namespace
extern const OpHandler l2_pool_2d_handler = {check, lower, pool_2d_window_ops, /*is_view=*/false, pool_2d_in_place,
                                             read_pool_2d_options};
}  // namespace microaot
