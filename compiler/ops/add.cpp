// ADD with broadcasting (ranks up to 6): float, int8 and int16. The quantized constants are TFLM's
// (tflite-micro add_common.cc): inputs shifted left by 20 (int8) or 15 (int16) and scaled by
// scale / (2 * max input scale), the sum rescaled by 2 * max input scale / (2^shift * output scale).
// The broadcast is resolved here into merged output dimensions and per-input strides.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/in_place.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/read_options.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

constexpr size_t kMaxRank = 6;  // MICROAOT_ADD_MAX_DIMS

// Right-aligned NumPy broadcast of two shapes; false when a pair of dimensions is neither equal nor 1.
bool broadcast_shape(const std::vector<int32_t>& a, const std::vector<int32_t>& b, std::vector<int32_t>* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int32_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int32_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) return false;
    (*out)[rank - 1 - i] = da == 1 ? db : da;
  }
  return true;
}

// Row-major element strides of `shape` right-aligned into `rank` dimensions; 0 along size-1 dimensions
// (and along the missing leading ones), so that a broadcast input re-reads the same elements.
std::vector<int64_t> broadcast_strides(const std::vector<int32_t>& shape, size_t rank) {
  std::vector<int64_t> strides(rank, 0);
  int64_t stride = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    const size_t d = rank - 1 - i;
    const int32_t dim = shape[shape.size() - 1 - i];
    strides[d] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
  return strides;
}

// The broadcast walk: output dimensions of size 1 dropped, then neighbours merged wherever both inputs
// continue contiguously (or both stay broadcast) across them.
struct BroadcastPlan {
  std::vector<int64_t> shape, strides1, strides2;
  // Same layout for both inputs and the output: a plain element-wise loop does.
  bool is_flat() const { return shape.empty() || (shape.size() == 1 && strides1[0] == 1 && strides2[0] == 1); }
};

BroadcastPlan plan_broadcast(const std::vector<int32_t>& in1, const std::vector<int32_t>& in2,
                             const std::vector<int32_t>& out) {
  const std::vector<int64_t> s1 = broadcast_strides(in1, out.size());
  const std::vector<int64_t> s2 = broadcast_strides(in2, out.size());
  BroadcastPlan plan;
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    const bool merges = !plan.shape.empty() && plan.strides1.back() == s1[d] * out[d] &&
                        plan.strides2.back() == s2[d] * out[d];
    if (merges) {
      plan.shape.back() *= out[d];
      plan.strides1.back() = s1[d];
      plan.strides2.back() = s2[d];
    } else {
      plan.shape.push_back(out[d]);
      plan.strides1.push_back(s1[d]);
      plan.strides2.push_back(s2[d]);
    }
  }
  return plan;
}

struct AddQuant {
  int left_shift;
  QuantizedMultiplier input1, input2, output;
  double real_output_multiplier;
};

// TFLM's CalculateOpDataAdd, in double from the float scales.
AddQuant add_quant(const Graph& graph, const Op& op) {
  const float s1 = graph.tensor(op.inputs[0]).quant.scale[0];
  const float s2 = graph.tensor(op.inputs[1]).quant.scale[0];
  const Tensor& output = graph.tensor(op.outputs[0]);
  AddQuant q;
  q.left_shift = output.dtype == DType::kInt16 ? 15 : 20;
  const double twice_max_input_scale = 2 * static_cast<double>(std::max(s1, s2));
  q.real_output_multiplier =
      twice_max_input_scale / ((1 << q.left_shift) * static_cast<double>(output.quant.scale[0]));
  q.input1 = quantize_multiplier_smaller_than_one(static_cast<double>(s1) / twice_max_input_scale);
  q.input2 = quantize_multiplier_smaller_than_one(static_cast<double>(s2) / twice_max_input_scale);
  if (q.real_output_multiplier < 1.0) q.output = quantize_multiplier_smaller_than_one(q.real_output_multiplier);
  return q;
}

void expect_quant(const Graph& graph, const Op& op, int id, const std::string& role) {
  expect_per_tensor_quant(graph, op, id, role);
  const Tensor& t = graph.tensor(id);
  const int64_t zp = t.quant.zero_point[0];
  if (t.dtype == DType::kInt8) {
    expect_tensor(zp >= -128 && zp <= 127, graph, op, id, role, "zero point is outside the int8 range");
  } else {
    expect_tensor(zp == 0, graph, op, id, role, "int16 ADD needs zero point 0 (symmetric quantization)");
  }
}

void check_shapes(const Graph& graph, const Op& op) {
  const int in1 = op.inputs[0], in2 = op.inputs[1], out = op.outputs[0];
  const char* roles[] = {"input 0", "input 1", "output 0"};
  const int ids[] = {in1, in2, out};
  for (int i = 0; i < 3; ++i) {
    const Tensor& t = graph.tensor(ids[i]);
    expect_tensor(t.shape.size() <= kMaxRank, graph, op, ids[i], roles[i], "rank above 6 is not supported");
    for (int32_t dim : t.shape) {
      expect_tensor(dim > 0, graph, op, ids[i], roles[i], "has an empty or unknown dimension");
    }
  }
  std::vector<int32_t> shape;
  expect_op(broadcast_shape(graph.tensor(in1).shape, graph.tensor(in2).shape, &shape), graph, op,
            "input shapes cannot be broadcast together");
  expect_tensor(graph.tensor(out).shape == shape, graph, op, out, "output 0",
                "must have the broadcast shape of the inputs");
  expect_tensor(graph.tensor(out).num_elements() <= std::numeric_limits<int32_t>::max(), graph, op, out,
                "output 0", "has too many elements");
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 2, 1);
  expect_version(graph, op, 5);
  const int in1 = input_id(graph, op, 0);
  const int in2 = input_id(graph, op, 1);
  const int out = output_id(graph, op, 0);
  const DType type = graph.tensor(in1).dtype;
  expect_dtype(graph, op, in1, "input 0", {DType::kFloat32, DType::kInt8, DType::kInt16});
  expect_dtype(graph, op, in2, "input 1", {type});
  expect_dtype(graph, op, out, "output 0", {type});
  check_shapes(graph, op);
  if (type == DType::kFloat32) return;
  expect_quant(graph, op, in1, "input 0");
  expect_quant(graph, op, in2, "input 1");
  expect_quant(graph, op, out, "output 0");
  const AddQuant q = add_quant(graph, op);
  expect_tensor(q.real_output_multiplier < 1.0, graph, op, out, "output 0",
                "scale is too small for the input scales (TFLM needs 2 * max input scale < 2^" +
                    std::to_string(q.left_shift) + " * output scale)");
}

void add_broadcast_fields(const Graph& graph, const Op& op, KernelCall* call) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  const BroadcastPlan plan =
      plan_broadcast(graph.tensor(op.inputs[0]).shape, graph.tensor(op.inputs[1]).shape, output.shape);
  call->params.set_int("flat_size", output.num_elements());
  const bool flat = plan.is_flat();
  call->params.set_int("num_dims", flat ? 0 : static_cast<int64_t>(plan.shape.size()));
  call->params.set_ints("output_shape", flat ? std::vector<int64_t>{} : plan.shape);
  call->params.set_ints("input1_strides", flat ? std::vector<int64_t>{} : plan.strides1);
  call->params.set_ints("input2_strides", flat ? std::vector<int64_t>{} : plan.strides2);
}

void add_quant_fields(const Graph& graph, const Op& op, KernelCall* call) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  const AddQuant q = add_quant(graph, op);
  const ActivationRange range = quantized_activation_range(options_if<FusedActivationOptions>(op)->activation,
                                                           output.dtype, output.quant.scale[0],
                                                           static_cast<int32_t>(output.quant.zero_point[0]));
  ParamValues& p = call->params;
  p.set_int("input1_offset", -graph.tensor(op.inputs[0]).quant.zero_point[0]);
  p.set_int("input1_multiplier", q.input1.multiplier);
  p.set_int("input1_shift", q.input1.shift);
  p.set_int("input2_offset", -graph.tensor(op.inputs[1]).quant.zero_point[0]);
  p.set_int("input2_multiplier", q.input2.multiplier);
  p.set_int("input2_shift", q.input2.shift);
  p.set_int("left_shift", q.left_shift);
  p.set_int("output_multiplier", q.output.multiplier);
  p.set_int("output_shift", q.output.shift);
  p.set_int("output_offset", output.quant.zero_point[0]);
  p.set_int("activation_min", range.min);
  p.set_int("activation_max", range.max);
}

KernelCall lower(const Graph& graph, const Op& op, const Target&) {
  const DType type = graph.tensor(op.outputs[0]).dtype;
  KernelCall call;
  call.stem = std::string("add_") + dtype_short_name(type);  // f32, s8, s16
  call.args = {op.inputs[0], op.inputs[1], op.outputs[0]};
  add_broadcast_fields(graph, op, &call);
  if (type == DType::kFloat32) {
    const FloatActivationRange range = float_activation_range(options_if<FusedActivationOptions>(op)->activation);
    call.params.set_float("activation_min", range.min);
    call.params.set_float("activation_max", range.max);
  } else {
    add_quant_fields(graph, op, &call);
  }
  return call;
}

// An input with the output's element count is not broadcast: the kernel reads its element i (in the flat
// loop or the broadcast walk alike) just before it stores output element i, in order.
std::vector<InPlaceOption> in_place(const Graph& graph, const Op& op) {
  std::vector<InPlaceOption> options;
  const int64_t elements = graph.tensor(op.outputs[0]).num_elements();
  for (int i = 0; i < 2; ++i) {
    if (graph.tensor(op.inputs[i]).num_elements() == elements) options.push_back(element_wise_option(graph, op, i, 0));
  }
  return options;
}

// One addition per output element (the int8 rescaling multiplies are not counted).
int64_t macs(const Graph& graph, const Op& op) { return graph.tensor(op.outputs[0]).num_elements(); }

}  // namespace

extern const OpHandler add_handler = {check, lower, macs, /*is_view=*/false, in_place,
                                     read_fused_activation<tflite::AddOptions>};

}  // namespace microaot
