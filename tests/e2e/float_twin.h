// The float twin of a converter-made integer model, made at test time: the same operators and tensors with
// every constant dequantized (value = scale x (q - zero point), per channel where the tensor is), every
// activation and state float32, and the boundary QUANTIZE / DEQUANTIZE ops that only change the interface type
// dropped. It stands in for the float model the converter started from (../shared holds no float recurrent
// model): `microaot quantize` of the twin is measured against the converter's own int8 model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace microaot::e2e {

Graph float_twin(const Graph& quantized);
// float_twin of the .tflite at `model`, written as a .tflite at `out`.
void write_float_twin(const std::string& model, const std::string& out);

// The float values raw tensor bytes stand for: float32 copied, int8/int16/int32 dequantized with `t`'s
// (per-tensor) parameters.
std::vector<float> values_of(const Tensor& t, const std::vector<uint8_t>& bytes);
// `values` as raw bytes of tensor `t`: float32, or int8/int16 quantized with its parameters (rounded, clamped).
std::vector<uint8_t> bytes_for(const Tensor& t, const std::vector<float>& values);

}  // namespace microaot::e2e
