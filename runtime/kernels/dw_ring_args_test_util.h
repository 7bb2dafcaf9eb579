// The depthwise ring kernels' arguments as the compiler passes them (compiler/ops/depthwise_conv_2d.cpp):
// the requantization as one array (the multipliers, then the shifts) and the params' per-channel arrays NULL,
// so that a kernel which read the params' arrays would fail the test.
#pragma once

#include <cstdint>
#include <vector>

#include "microaot/kernels/conv.h"

struct DwRingArgs {
  microaot_depthwise_conv_2d_params_q params;
  std::vector<int32_t> requant;

  explicit DwRingArgs(const microaot_depthwise_conv_2d_params_q& p) : params(p) {
    const auto depth = static_cast<size_t>(p.output_depth);
    requant.assign(p.output_multiplier, p.output_multiplier + depth);
    requant.insert(requant.end(), p.output_shift, p.output_shift + depth);
    params.output_multiplier = nullptr;
    params.output_shift = nullptr;
  }
};
