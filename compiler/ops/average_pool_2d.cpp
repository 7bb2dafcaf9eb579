// AVERAGE_POOL_2D: int8, int16 and float32, any fused activation; see pool_2d_common.h for the shared rules.
#include <cstdint>
#include <string>

#include "ops/op_handler.h"
#include "ops/pool_2d_common.h"

namespace microaot {
namespace {

// Whether the DSP kernel's 16-bit lanes compute the int8 layer: whole groups of four channels, and windows of
// at most 256 elements (their sums fit a lane). The same bound as the runtime's dsp_pool_lanes_fit
// (runtime/include/microaot/templates/pool_2d_s8_lanes.h): change both together.
bool average_pool_dsp_lanes_fit(int64_t channels, int64_t filter_height, int64_t filter_width) {
  return channels > 0 && channels % 4 == 0 && filter_height >= 1 && filter_width >= 1 &&
         filter_height * filter_width <= 256;
}

// Whether the lanes' global kernel computes the int8 layer: within the lanes, and one window over the whole input
// plane (no leading padding, a 1x1 output). The same bound as the runtime's dsp_pool_global_fit
// (runtime/kernels/dsp/average_pool_2d_s8_global.c): change both together.
bool average_pool_dsp_global_fit(const ParamValues& params) {
  const auto field = [&params](const char* name) { return params.find(name)->integer; };
  return average_pool_dsp_lanes_fit(field("channels"), field("filter_height"), field("filter_width")) &&
         field("filter_height") == field("input_height") && field("filter_width") == field("input_width") &&
         field("padding_height") == 0 && field("padding_width") == 0 && field("output_height") == 1 &&
         field("output_width") == 1;
}

void check(const Graph& graph, const Op& op) {
  check_pool_2d(graph, op);
  check_pool_2d_sum(graph, op);
}

// On a cpu with the DSP extension, a layer the lanes compute calls their own kernel, which links no per-element
// row (and refuses, a status, any other layer); the others keep the full kernel.
KernelCall lower(const Graph& graph, const Op& op, const Target& target) {
  KernelCall call = lower_pool_2d(graph, op, "average_pool_2d");
  if (!target.kernels_use_dsp() || graph.tensor(op.inputs[0]).dtype != DType::kInt8) return call;
  const auto field = [&call](const char* name) { return call.params.find(name)->integer; };
  if (average_pool_dsp_global_fit(call.params)) {
    call.stem = "average_pool_2d_s8_global";
    call.specialisation = "average pool: global (the whole plane one window), 4 channels per pass in 16-bit lanes "
                          "(SXTAB16)";
  } else if (average_pool_dsp_lanes_fit(field("channels"), field("filter_height"), field("filter_width"))) {
    call.stem = "average_pool_2d_s8_lanes";
    call.specialisation = "average pool: 4 channels per pass in 16-bit lanes (SXTAB16)";
  } else {
    call.specialisation = "average pool: one element at a time (channels not a multiple of 4, or a window above "
                          "256 elements: beyond the 16-bit lanes)";
  }
  return call;
}
}  // namespace

extern const OpHandler average_pool_2d_handler = {check, lower, pool_2d_window_ops, /*is_view=*/false,
                                              pool_2d_in_place, read_pool_2d_options};
}  // namespace microaot
