// AVERAGE_POOL_2D: int8, int16 and float32, any fused activation; see pool_2d_common.h for the shared rules.
#include "kernels/params_struct.h"
#include "kernels/select_kernels.h"
#include "microaot/fit/average_pool_2d.h"
#include "ops/op_handler.h"
#include "ops/pool_2d_common.h"

namespace microaot {
namespace {

void check(const Graph& graph, const Op& op) {
  check_pool_2d(graph, op);
  check_pool_2d_sum(graph, op);
}

KernelCall lower(const Graph& graph, const Op& op) {
  return lower_pool_2d(graph, op, "average_pool_2d");
}

// The int8 family's chooser (compile/choose_variants.h): a layer the lanes compute calls their own kernel, which
// links no per-element row (and refuses, a status, any other layer); the others keep the full kernel. The fit
// rules are the ones the kernels' guards apply (runtime/include/microaot/fit/average_pool_2d.h).
void choose(const Graph&, const Op&, const Target& target, KernelCall& call) {
  if (!has_specialisation_for(call.stem, target)) return;
  const microaot_pool_2d_params_q params = MICROAOT_PARAMS_STRUCT(pool_2d_params_q, call.params);
  if (microaot_fit_pool_global(&params)) {
    call.stem = "average_pool_2d_s8_global";
    call.specialisation = "average pool: global (the whole plane one window), 4 channels per pass in 16-bit lanes "
                          "(SXTAB16)";
  } else if (microaot_fit_pool_lanes(&params)) {
    call.stem = "average_pool_2d_s8_lanes";
    call.specialisation = "average pool: 4 channels per pass in 16-bit lanes (SXTAB16)";
  } else {
    call.specialisation = "average pool: one element at a time (fewer than 4 channels, or a window above "
                          "256 elements: beyond the 16-bit lanes)";
  }
}
}  // namespace

extern const OpHandler average_pool_2d_handler = {check,
                                                  lower,
                                                  pool_2d_window_ops,
                                                  /*is_view=*/false,
                                                  pool_2d_in_place,
                                                  read_pool_2d_options,
                                                  /*state_copy_bytes=*/nullptr,
                                                  choose};
}  // namespace microaot
