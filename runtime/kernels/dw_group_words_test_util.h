// depthwise_conv_2d_s8_w16's (`compact`: depthwise_conv_2d_s8_w8's) arguments as the compiler passes them
// (compiler/ops/depthwise_conv_2d.cpp): each channel group's words (microaot/internal/depthwise_group_words.h) and
// the params' per-channel arrays NULL, so that a kernel which read the params' arrays or the filter would fail the
// test.
#pragma once

#include <cstdint>
#include <vector>

#include "microaot/internal/depthwise_group_words.h"
#include "microaot/kernels/conv.h"

struct DwGroupWords {
  microaot_depthwise_conv_2d_params_q params;
  std::vector<int32_t> words;

  DwGroupWords(const microaot_depthwise_conv_2d_params_q& p, const int8_t* filter, const int32_t* bias,
               bool compact = false)
      : params(p) {
    const microaot_depthwise_channels ch = {bias, p.output_multiplier, p.output_shift};
    const int32_t n = compact ? MICROAOT_DW_COMPACT_WORDS : MICROAOT_DW_GROUP_WORDS;
    words.resize(static_cast<size_t>(p.output_depth / 4 * n));
    for (int32_t c = 0; c + 4 <= p.output_depth; c += 4) {
      (compact ? microaot_dw_compact_words : microaot_dw_group_words)(&p, filter, &ch, c, words.data() + c / 4 * n);
    }
    params.output_multiplier = nullptr;
    params.output_shift = nullptr;
  }
};
