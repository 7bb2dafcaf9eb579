// What the element-wise unary operators (ABS, EXP, RELU, LOGISTIC, CAST, ...) share: their type, shape and
// quantization checks, the kernel call over the runtime's unary skeleton (runtime/include/microaot/unary.h),
// the rescale params of its quantized kernels, compile-time int8 lookup tables, in-place options and MACs.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "ops/op_handler.h"
#include "ops/quant_math.h"

namespace microaot {

// One input and one output of one type among `types`, with known dimensions and the same element count, as
// TFLM's MatchingFlatSize. Returns the type.
DType check_unary_op(const Graph& graph, const Op& op, std::initializer_list<DType> types);

// int8 (and int16 unless symmetric_int16): per-tensor quantization with zero points in range for input 0
// and output 0; int16 with symmetric_int16: zero points 0, as TFLM's int16 kernels require.
void check_unary_quantization(const Graph& graph, const Op& op, bool symmetric_int16);

// The call of `<op_stem>_<input type>` on input 0 -> output 0 with its `size` field.
KernelCall unary_call(const Graph& graph, const Op& op, const std::string& op_stem);

// The fields of unary_params_q: input offset, the multiplier of `real_multiplier`, output offset, clamp range.
void set_unary_rescale_params(KernelCall& call, const Tensor& input, const Tensor& output, double real_multiplier,
                              ActivationRange range);
// The fields LEAKY_RELU and PRELU share: input and output offsets, one multiplier for inputs at or above the
// zero point (`identity_real`) and one for those below (`alpha_real`), the output type's clamp range.
void set_by_sign_params(KernelCall& call, const Tensor& input, const Tensor& output, double identity_real,
                        double alpha_real);
// The full range of an integer type.
ActivationRange type_range(DType type);

// TFLM's 256-entry int8 table of f (LUTPopulate): each input value dequantized in float, transformed,
// requantized with the float reciprocal of the output scale and clamped; here ordered from input -128 to 127.
std::vector<int64_t> int8_lut(const Tensor& input, const Tensor& output, float (*f)(float));

// ONNX's arithmetic of an int8 unary op in a QDQ group, as the same kind of table: for each input q, in float32
// as ONNX's tensors are (and onnxruntime computes), x = (q - input zero point) * input scale (DequantizeLinear),
// f(x), divided by the output scale and rounded half to even, plus the output zero point, saturated
// (QuantizeLinear).
std::vector<int64_t> int8_onnx_lut(const Tensor& input, const Tensor& output, const std::function<float(float)>& f);

// The table the int16 LOGISTIC and TANH kernels interpolate (TFLM's sigmoid_table_uint16): sigmoid(i / 24)
// for i = 0 .. 255 in Q0.16, stored minus 1/2 so that it fits int16.
std::vector<int64_t> sigmoid_table();

// The kernels read element i just before they store element i: the element-wise in-place rule.
std::vector<InPlaceOption> unary_in_place(const Graph& graph, const Op& op);

// One operation per output element.
int64_t unary_macs(const Graph& graph, const Op& op);

}  // namespace microaot
