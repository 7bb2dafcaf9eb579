// Hybrid operators (float32 activations, constant int8 weights: what TFLite's dynamic-range quantization
// emits for FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D): the weight checks and the params they share.
#pragma once

#include <string>

#include "ir/graph.h"
#include "ops/op_handler.h"

namespace microaot {

// The stem suffix of the hybrid kernels (fully_connected_f32_s8w, ...).
inline constexpr const char* kHybridStemSuffix = "_s8w";

// True when input `input` is float32 and the weights `weights` are int8.
bool is_hybrid(const Graph& graph, int input, int weights);

// The quantization of constant int8 weights (the handler checks they are constant): symmetric (every zero
// point 0), one scale or one per output channel along `channel_axis` (`channels` of them), every scale
// finite and positive; anything else would not be the model with these weights dequantized.
void check_hybrid_weights(const Graph& graph, const Op& op, int weights, int channels, int channel_axis);

// filter_scale: each output channel's weight scale (a per-tensor scale repeated).
void add_hybrid_fields(KernelCall& call, const Graph& graph, int weights, int channels);

}  // namespace microaot
