// Helpers the operator handlers use to validate an op and to derive window geometry. Every failure
// throws a CompileError that names the operator and, where one is involved, the tensor.
#pragma once

#include <initializer_list>
#include <string>

#include "ir/graph.h"

namespace microaot {

// Throws "CONV_2D (op 3): <what>" unless cond holds.
void expect_op(bool cond, const Graph& graph, const Op& op, const std::string& what);
// Throws "CONV_2D (op 3), input 1 'w' (tensor 7): <what>" unless cond holds. role: "input 1", "output 0".
void expect_tensor(bool cond, const Graph& graph, const Op& op, int tensor_id, const std::string& role,
                   const std::string& what);

// Checks counts of inputs (min..max, optional trailing ones may be kNoTensor) and outputs.
void expect_arity(const Graph& graph, const Op& op, int min_inputs, int max_inputs, int outputs);
// The i-th input/output tensor id; checks it is present.
int input_id(const Graph& graph, const Op& op, int index);
int output_id(const Graph& graph, const Op& op, int index);
// The i-th input id or kNoTensor when absent (optional inputs such as a bias).
int optional_input_id(const Op& op, int index);

void expect_dtype(const Graph& graph, const Op& op, int tensor_id, const std::string& role,
                  std::initializer_list<DType> allowed);
void expect_rank(const Graph& graph, const Op& op, int tensor_id, const std::string& role, int rank);
void expect_constant(const Graph& graph, const Op& op, int tensor_id, const std::string& role);
// A constant that holds every byte its shape needs (what a kernel reads from flash).
void expect_constant_data(const Graph& graph, const Op& op, int tensor_id, const std::string& role);
// Per-tensor quantization with a non-zero finite scale.
void expect_per_tensor_quant(const Graph& graph, const Op& op, int tensor_id, const std::string& role);
// Per-tensor quantization whose zero point is a value of the tensor's type (int8, uint8 or int16).
void expect_activation_quant(const Graph& graph, const Op& op, int tensor_id, const std::string& role);
// Per-tensor quantization with zero point 0, as TFLM's int16 kernels require.
void expect_symmetric_quant(const Graph& graph, const Op& op, int tensor_id, const std::string& role);
void expect_version(const Graph& graph, const Op& op, int max_version);
// Input 0 and output 0 of an element-for-element op: known dimensions, equal element counts, and a count
// that fits the kernels' int32 loop bounds.
void expect_same_elements(const Graph& graph, const Op& op, int in, int out);

// Every dimension known (not -1) and the tensor's bytes within the kernels' int32 sizes.
void expect_known_shape(const Graph& graph, const Op& op, int tensor_id, const std::string& role);

// TFLite's SAME/VALID window arithmetic.
int window_output_size(Padding padding, int in_size, int filter_size, int stride, int dilation);
// Padding before the first element (the smaller half when the total is odd, as TFLite does).
int window_padding(int stride, int dilation, int in_size, int filter_size, int out_size);

}  // namespace microaot
