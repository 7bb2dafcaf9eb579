#include "ops/broadcast.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "ops/in_place.h"
#include "ops/op_checks.h"
#include "ops/quant_math.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
// Row-major element strides of `shape` right-aligned into `rank` dimensions; 0 along size-1 dimensions
// (and along the missing leading ones), so that a broadcast input re-reads the same elements. Leading
// dimensions beyond `rank` (only ever of size 1: SELECT_V2's single-element operands) are dropped.
std::vector<int64_t> broadcast_strides(const std::vector<int32_t>& shape, size_t rank) {
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (size_t i = 0; i < std::min(shape.size(), rank); ++i) {
    const size_t d = rank - 1 - i;
    const int32_t dim = shape[shape.size() - 1 - i];
    strides[d] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
  return strides;
}

std::string role(const char* kind, size_t index) { return std::string(kind) + " " + std::to_string(index); }

void expect_walkable(const Graph& graph, const Op& op, int id, const std::string& role) {
  const Tensor& t = graph.tensor(id);
  expect_tensor(t.shape.size() <= kMaxBroadcastRank, graph, op, id, role, "rank above 6 is not supported");
  for (int32_t dim : t.shape) expect_tensor(dim > 0, graph, op, id, role, "has an empty or unknown dimension");
}

std::vector<std::vector<int32_t>> input_shapes(const Graph& graph, const Op& op) {
  std::vector<std::vector<int32_t>> shapes;
  for (int id : op.inputs) shapes.push_back(graph.tensor(id).shape);
  return shapes;
}
}  // namespace

bool broadcast_shape(const std::vector<std::vector<int32_t>>& shapes, std::vector<int32_t>* out) {
  size_t rank = 0;
  for (const auto& shape : shapes) rank = std::max(rank, shape.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int32_t& dim = (*out)[rank - 1 - i];
    for (const auto& shape : shapes) {
      const int32_t d = i < shape.size() ? shape[shape.size() - 1 - i] : 1;
      if (d != dim && d != 1 && dim != 1) return false;
      if (d != 1) dim = d;
    }
  }
  return true;
}

bool BroadcastPlan::is_flat() const {
  if (shape.size() > 1) return false;
  for (const auto& s : strides) {
    if (!s.empty() && s[0] != 1) return false;
  }
  return true;
}

BroadcastPlan plan_broadcast(const std::vector<std::vector<int32_t>>& inputs, const std::vector<int32_t>& out) {
  std::vector<std::vector<int64_t>> full;
  for (const auto& shape : inputs) full.push_back(broadcast_strides(shape, out.size()));
  BroadcastPlan plan;
  plan.strides.resize(inputs.size());
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    bool merges = !plan.shape.empty();
    for (size_t k = 0; k < inputs.size() && merges; ++k) merges = plan.strides[k].back() == full[k][d] * out[d];
    if (merges) plan.shape.back() *= out[d];
    if (!merges) plan.shape.push_back(out[d]);
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (merges) plan.strides[k].back() = full[k][d];
      if (!merges) plan.strides[k].push_back(full[k][d]);
    }
  }
  return plan;
}

void check_broadcast_shapes(const Graph& graph, const Op& op) {
  MICROAOT_CHECK(op.inputs.size() <= kMaxBroadcastInputs, "a broadcast walk takes at most three inputs");
  for (size_t i = 0; i < op.inputs.size(); ++i) expect_walkable(graph, op, op.inputs[i], role("input", i));
  const int out = op.outputs[0];
  expect_walkable(graph, op, out, "output 0");
  std::vector<int32_t> shape;
  expect_op(broadcast_shape(input_shapes(graph, op), &shape), graph, op, "input shapes cannot be broadcast together");
  expect_tensor(graph.tensor(out).shape == shape, graph, op, out, "output 0",
                "must have the broadcast shape of the inputs");
  expect_tensor(graph.tensor(out).num_elements() <= std::numeric_limits<int32_t>::max(), graph, op, out,
                "output 0", "has too many elements");
}

DType check_binary_op(const Graph& graph, const Op& op, std::initializer_list<DType> types, DType output) {
  expect_arity(graph, op, 2, 2, 1);
  const int in1 = input_id(graph, op, 0);
  const DType type = graph.tensor(in1).dtype;
  expect_dtype(graph, op, in1, "input 0", types);
  expect_dtype(graph, op, input_id(graph, op, 1), "input 1", {type});
  expect_dtype(graph, op, output_id(graph, op, 0), "output 0", {output == DType::kUnsupported ? type : output});
  check_broadcast_shapes(graph, op);
  return type;
}

void check_binary_quantization(const Graph& graph, const Op& op) {
  const int ids[] = {op.inputs[0], op.inputs[1], op.outputs[0]};
  const char* roles[] = {"input 0", "input 1", "output 0"};
  for (int i = 0; i < 3; ++i) {
    if (graph.tensor(ids[i]).dtype == DType::kInt16) {
      expect_symmetric_quant(graph, op, ids[i], roles[i]);
    } else {
      expect_activation_quant(graph, op, ids[i], roles[i]);
    }
  }
}

void check_binary_unquantized(const Graph& graph, const Op& op) {
  for (int i = 0; i < 2; ++i) {
    expect_tensor(graph.tensor(op.inputs[i]).quant.scale.empty(), graph, op, op.inputs[i], role("input", i),
                  std::string("is ") + dtype_name(graph.tensor(op.inputs[i]).dtype) + " and must not be quantized");
  }
}

void set_input_offset_params(const Graph& graph, const Op& op, KernelCall& call) {
  for (int k = 0; k < 2; ++k) {
    call.params.set_int("input" + std::to_string(k + 1) + "_offset", -graph.tensor(op.inputs[k]).quant.zero_point[0]);
  }
}

void set_input_rescale_params(const Graph& graph, const Op& op, const InputRescale& rescale, KernelCall& call) {
  set_input_offset_params(graph, op, call);
  const double reals[] = {rescale.real1, rescale.real2};
  for (int k = 0; k < 2; ++k) {
    const std::string input = "input" + std::to_string(k + 1);
    const QuantizedMultiplier m = quantize_multiplier_smaller_than_one(reals[k]);
    call.params.set_int(input + "_multiplier", m.multiplier);
    call.params.set_int(input + "_shift", m.shift);
  }
  call.params.set_int("left_shift", rescale.left_shift);
}

void set_output_rescale_params(const Graph& graph, const Op& op, const QuantizedMultiplier& m, KernelCall& call) {
  call.params.set_int("output_multiplier", m.multiplier);
  call.params.set_int("output_shift", m.shift);
  call.params.set_int("output_offset", graph.tensor(op.outputs[0]).quant.zero_point[0]);
}

void set_broadcast_params(const Graph& graph, const Op& op, KernelCall& call) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  const BroadcastPlan plan = plan_broadcast(input_shapes(graph, op), output.shape);
  const bool flat = plan.is_flat();
  call.params.set_int("flat_size", output.num_elements());
  call.params.set_int("num_dims", flat ? 0 : static_cast<int64_t>(plan.shape.size()));
  call.params.set_ints("output_shape", flat ? std::vector<int64_t>{} : plan.shape);
  for (size_t k = 0; k < plan.strides.size(); ++k) {
    call.params.set_ints("input" + std::to_string(k + 1) + "_strides",
                         flat ? std::vector<int64_t>{} : plan.strides[k]);
  }
}

KernelCall broadcast_call(const Graph& graph, const Op& op, bool byte_generic) {
  KernelCall call;
  for (const char* c = op_kind_name(op.kind); *c != '\0'; ++c) {
    call.stem += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  }
  if (!byte_generic) call.stem += std::string("_") + dtype_short_name(graph.tensor(op.inputs.back()).dtype);
  call.args = op.inputs;
  call.args.push_back(op.outputs[0]);
  set_broadcast_params(graph, op, call);
  return call;
}

std::vector<InPlaceOption> binary_in_place(const Graph& graph, const Op& op) {
  std::vector<InPlaceOption> options;
  const int64_t elements = graph.tensor(op.outputs[0]).num_elements();
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    if (graph.tensor(op.inputs[i]).num_elements() == elements) {
      options.push_back(element_wise_option(graph, op, static_cast<int>(i), 0));
    }
  }
  return options;
}

int64_t binary_macs(const Graph& graph, const Op& op) { return graph.tensor(op.outputs[0]).num_elements(); }

}  // namespace microaot
