#include "ops/op_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "support/diagnostics.h"

namespace microaot {

void expect_op(bool cond, const Graph& graph, const Op& op, const std::string& what) {
  if (!cond) throw CompileError(describe_op(graph, op) + ": " + what);
}

void expect_tensor(bool cond, const Graph& graph, const Op& op, int tensor_id, const std::string& role,
                   const std::string& what) {
  if (!cond) {
    throw CompileError(describe_op(graph, op) + ", " + role + " " + describe_tensor(graph, tensor_id) + ": " + what);
  }
}

void expect_arity(const Graph& graph, const Op& op, int min_inputs, int max_inputs, int outputs) {
  const int n_in = static_cast<int>(op.inputs.size());
  expect_op(n_in >= min_inputs && n_in <= max_inputs, graph, op,
            "expects " + std::to_string(min_inputs) + (min_inputs == max_inputs ? "" : "-" + std::to_string(max_inputs)) +
                " inputs, has " + std::to_string(n_in));
  expect_op(static_cast<int>(op.outputs.size()) == outputs, graph, op,
            "expects " + std::to_string(outputs) + " outputs, has " + std::to_string(op.outputs.size()));
}

int input_id(const Graph& graph, const Op& op, int index) {
  expect_op(index < static_cast<int>(op.inputs.size()) && op.inputs[index] != kNoTensor, graph, op,
            "input " + std::to_string(index) + " is missing");
  return op.inputs[index];
}

int output_id(const Graph& graph, const Op& op, int index) {
  expect_op(index < static_cast<int>(op.outputs.size()) && op.outputs[index] != kNoTensor, graph, op,
            "output " + std::to_string(index) + " is missing");
  return op.outputs[index];
}

int optional_input_id(const Op& op, int index) {
  return index < static_cast<int>(op.inputs.size()) ? op.inputs[index] : kNoTensor;
}

std::string input_role(const Op& op, int tensor_id) {
  const auto at = std::find(op.inputs.begin(), op.inputs.end(), tensor_id);
  return "input " + std::to_string(at - op.inputs.begin());
}

void expect_dtype(const Graph& graph, const Op& op, int tensor_id, const std::string& role,
                  std::initializer_list<DType> allowed) {
  const DType actual = graph.tensor(tensor_id).dtype;
  std::string names;
  for (DType type : allowed) {
    if (type == actual) return;
    names += (names.empty() ? "" : " or ") + std::string(dtype_name(type));
  }
  expect_tensor(false, graph, op, tensor_id, role,
                "type " + std::string(dtype_name(actual)) + " is not supported here (expected " + names + ")");
}

void expect_rank(const Graph& graph, const Op& op, int tensor_id, const std::string& role, int rank) {
  const int actual = static_cast<int>(graph.tensor(tensor_id).shape.size());
  expect_tensor(actual == rank, graph, op, tensor_id, role,
                "expected rank " + std::to_string(rank) + ", got rank " + std::to_string(actual));
}

void expect_constant(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  expect_tensor(graph.tensor(tensor_id).is_constant, graph, op, tensor_id, role,
                "must be a constant (weights computed at run time are not supported)");
}

void expect_constant_data(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  expect_constant(graph, op, tensor_id, role);
  const Tensor& t = graph.tensor(tensor_id);
  expect_tensor(static_cast<int64_t>(t.data.size()) == t.byte_size(), graph, op, tensor_id, role,
                "holds " + std::to_string(t.data.size()) + " bytes of data, its shape needs " +
                    std::to_string(t.byte_size()));
}

void expect_activation_quant(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  expect_per_tensor_quant(graph, op, tensor_id, role);
  const Tensor& t = graph.tensor(tensor_id);
  const int64_t zp = t.quant.zero_point[0];
  int64_t lo = 0, hi = 0;
  switch (t.dtype) {
    case DType::kInt8: lo = INT8_MIN, hi = INT8_MAX; break;
    case DType::kUInt8: lo = 0, hi = UINT8_MAX; break;
    case DType::kInt16: lo = INT16_MIN, hi = INT16_MAX; break;
    case DType::kInt32: lo = -INT32_MAX, hi = INT32_MAX; break;  // kernels take -zero point as an int32
    default: return;
  }
  expect_tensor(zp >= lo && zp <= hi, graph, op, tensor_id, role,
                "zero point " + std::to_string(zp) + " is outside the range of " + dtype_name(t.dtype));
}

void expect_symmetric_quant(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  expect_per_tensor_quant(graph, op, tensor_id, role);
  const int64_t zp = graph.tensor(tensor_id).quant.zero_point[0];
  expect_tensor(zp == 0, graph, op, tensor_id, role,
                "zero point " + std::to_string(zp) + ": " + dtype_name(graph.tensor(tensor_id).dtype) +
                    " tensors must be symmetric (zero point 0), as TFLite Micro requires");
}

void expect_per_tensor_quant(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  const Quantization& q = graph.tensor(tensor_id).quant;
  expect_tensor(q.scale.size() == 1 && q.zero_point.size() == 1, graph, op, tensor_id, role,
                "needs per-tensor quantization (one scale and zero point)");
  expect_tensor(std::isfinite(q.scale[0]) && q.scale[0] > 0.0f, graph, op, tensor_id, role,
                "quantization scale must be finite and positive");
}

void expect_version(const Graph& graph, const Op& op, int max_version) {
  expect_op(op.version >= 1 && op.version <= max_version, graph, op,
            "version " + std::to_string(op.version) + " is not supported (up to " + std::to_string(max_version) + ")");
}

void expect_same_elements(const Graph& graph, const Op& op, int in, int out) {
  for (int32_t dim : graph.tensor(in).shape) {
    expect_tensor(dim >= 0, graph, op, in, "input 0", "has an unknown dimension");
  }
  for (int32_t dim : graph.tensor(out).shape) {
    expect_tensor(dim >= 0, graph, op, out, "output 0", "has an unknown dimension (-1 must be resolved)");
  }
  const int64_t count = graph.tensor(in).num_elements();
  expect_tensor(graph.tensor(out).num_elements() == count, graph, op, out, "output 0",
                "has " + std::to_string(graph.tensor(out).num_elements()) + " elements, the input has " +
                    std::to_string(count));
  expect_tensor(count <= INT32_MAX, graph, op, in, "input 0", "has too many elements");
}

void expect_known_shape(const Graph& graph, const Op& op, int tensor_id, const std::string& role) {
  for (int32_t dim : graph.tensor(tensor_id).shape) {
    expect_tensor(dim >= 0, graph, op, tensor_id, role, "has an unknown dimension");
  }
  expect_tensor(graph.tensor(tensor_id).byte_size() <= INT32_MAX, graph, op, tensor_id, role, "has too many bytes");
}

int window_output_size(Padding padding, int in_size, int filter_size, int stride, int dilation) {
  // In 64 bits: a hostile model's sizes near INT32_MAX must not overflow (callers check the result).
  const int64_t effective_filter = (static_cast<int64_t>(filter_size) - 1) * dilation + 1;
  if (stride <= 0) return 0;
  const int64_t size = padding == Padding::kSame ? (static_cast<int64_t>(in_size) + stride - 1) / stride
                                                 : (static_cast<int64_t>(in_size) + stride - effective_filter) / stride;
  return static_cast<int>(std::clamp<int64_t>(size, INT32_MIN, INT32_MAX));
}

int window_padding(int stride, int dilation, int in_size, int filter_size, int out_size) {
  const int effective_filter = (filter_size - 1) * dilation + 1;
  const int total = (out_size - 1) * stride + effective_filter - in_size;
  return total > 0 ? total / 2 : 0;
}

}  // namespace microaot
