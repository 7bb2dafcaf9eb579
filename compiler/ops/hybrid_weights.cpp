#include "ops/hybrid_weights.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/op_checks.h"

namespace microaot {

bool is_hybrid(const Graph& graph, int input, int weights) {
  return graph.tensor(input).dtype == DType::kFloat32 && graph.tensor(weights).dtype == DType::kInt8;
}

void check_hybrid_weights(const Graph& graph, const Op& op, int weights, int channels, int channel_axis) {
  const std::string role = input_role(op, weights);
  const Quantization& q = graph.tensor(weights).quant;
  const auto n = static_cast<int64_t>(q.scale.size());
  expect_tensor(n == 1 || n == channels, graph, op, weights, role,
                "int8 weights of a float32 op need 1 scale or one per output channel (" + std::to_string(channels) +
                    "), got " + std::to_string(n));
  expect_tensor(n == 1 || q.axis == channel_axis, graph, op, weights, role,
                "per-channel scales must be along dimension " + std::to_string(channel_axis) + ", not " +
                    std::to_string(q.axis));
  expect_tensor(q.zero_point.size() == q.scale.size(), graph, op, weights, role,
                "needs one zero point per scale");
  const bool symmetric = std::all_of(q.zero_point.begin(), q.zero_point.end(), [](int64_t zp) { return zp == 0; });
  expect_tensor(symmetric, graph, op, weights, role, "int8 weights of a float32 op must be symmetric (zero point 0)");
  const bool positive =
      std::all_of(q.scale.begin(), q.scale.end(), [](float s) { return std::isfinite(s) && s > 0.0f; });
  expect_tensor(positive, graph, op, weights, role, "int8 weights of a float32 op need finite positive scales");
}

void add_hybrid_fields(KernelCall& call, const Graph& graph, int weights, int channels) {
  const std::vector<float>& scales = graph.tensor(weights).quant.scale;
  std::vector<float> per_channel(static_cast<size_t>(channels), scales[0]);
  if (scales.size() > 1) per_channel = scales;
  call.params.set_floats("filter_scale", per_channel);
}

}  // namespace microaot
