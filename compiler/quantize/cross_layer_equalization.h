// Cross-layer equalisation (Nagel et al., "Data-Free Quantization", 2019) for depthwise-separable networks:
// a DEPTHWISE_CONV_2D whose output feeds only a CONV_2D has its channel c divided by s_c and the CONV_2D's
// input channel c multiplied by s_c, s_c = sqrt(r1_c / r2_c) (r1: the largest |weight| of depthwise channel
// c, r2: of the CONV_2D's input channel c), so that both hold the range sqrt(r1 r2). The float model's
// outputs stay the same (up to float rounding) because ReLU commutes with a positive scale; a depthwise
// with RELU6 or RELU_N1_TO_1 (which do not) or with a depth multiplier is left alone.
#pragma once

#include "ir/graph.h"

namespace microaot {

// Equalises every such pair of `graph` (float32 weights and bias); returns the number of pairs.
int equalize_depthwise_pairs(Graph& graph);

}  // namespace microaot
