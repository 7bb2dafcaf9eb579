#include "ops/broadcast.h"

#include <algorithm>
#include <limits>

#include "ops/in_place.h"
#include "ops/op_checks.h"

namespace microaot {

namespace {
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
}  // namespace

void check_broadcast_shapes(const Graph& graph, const Op& op) {
  const int in1 = op.inputs[0], in2 = op.inputs[1], out = op.outputs[0];
  const char* roles[] = {"input 0", "input 1", "output 0"};
  const int ids[] = {in1, in2, out};
  for (int i = 0; i < 3; ++i) {
    const Tensor& t = graph.tensor(ids[i]);
    expect_tensor(t.shape.size() <= kMaxBroadcastRank, graph, op, ids[i], roles[i], "rank above 6 is not supported");
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

DType check_binary_op(const Graph& graph, const Op& op, std::initializer_list<DType> types) {
  expect_arity(graph, op, 2, 2, 1);
  const int in1 = input_id(graph, op, 0);
  const DType type = graph.tensor(in1).dtype;
  expect_dtype(graph, op, in1, "input 0", types);
  expect_dtype(graph, op, input_id(graph, op, 1), "input 1", {type});
  expect_dtype(graph, op, output_id(graph, op, 0), "output 0", {type});
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

void set_broadcast_params(const Graph& graph, const Op& op, KernelCall& call) {
  const Tensor& output = graph.tensor(op.outputs[0]);
  const BroadcastPlan plan =
      plan_broadcast(graph.tensor(op.inputs[0]).shape, graph.tensor(op.inputs[1]).shape, output.shape);
  const bool flat = plan.is_flat();
  call.params.set_int("flat_size", output.num_elements());
  call.params.set_int("num_dims", flat ? 0 : static_cast<int64_t>(plan.shape.size()));
  call.params.set_ints("output_shape", flat ? std::vector<int64_t>{} : plan.shape);
  call.params.set_ints("input1_strides", flat ? std::vector<int64_t>{} : plan.strides1);
  call.params.set_ints("input2_strides", flat ? std::vector<int64_t>{} : plan.strides2);
}

std::vector<InPlaceOption> binary_in_place(const Graph& graph, const Op& op) {
  std::vector<InPlaceOption> options;
  const int64_t elements = graph.tensor(op.outputs[0]).num_elements();
  for (int i = 0; i < 2; ++i) {
    if (graph.tensor(op.inputs[i]).num_elements() == elements) options.push_back(element_wise_option(graph, op, i, 0));
  }
  return options;
}

int64_t binary_macs(const Graph& graph, const Op& op) { return graph.tensor(op.outputs[0]).num_elements(); }

}  // namespace microaot
