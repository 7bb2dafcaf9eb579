// BATCH_MATMUL: lhs [..., M, K] x rhs [..., K, N] (adj_x / adj_y read either operand transposed), batch
// dimensions broadcast, ranks 2 to 5, float, int8 or int16 (zero points 0), either operand constant or not,
// as TFLite Micro's reference kernel computes it (tflite-micro batch_matmul.cc): one dot product per output
// element over the depth in order; integers rescaled by float(lhs_scale * rhs_scale) / output_scale (the
// product taken in float, as TFLite's GetQuantizedConvolutionMultipler without a bias does).
#include <algorithm>
#include <string>

#include "kernels/params_struct.h"
#include "kernels/select_kernels.h"
#include "microaot/fit/batch_matmul.h"
#include "microaot/walk.h"
#include "ops/broadcast.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"
#include "ops/read_options.h"

namespace microaot {
namespace {

// TFLite's versions: 1 float, 2 int8, 3 int16, 4 hybrid's asymmetric inputs (refused by the type checks).
constexpr int kMaxVersion = 4;

OpOptions read_options(const Graph&, const Op&, const tflite::Operator& source) {
  BatchMatmulOptions options;
  if (const auto* table = source.builtin_options_as_BatchMatMulOptions()) {
    options.adj_x = table->adj_x();
    options.adj_y = table->adj_y();
  }
  return options;
}

// The product's geometry: the operands right-aligned to the output rank, their batch shapes and the output's.
struct Geometry {
  std::vector<int32_t> lhs_batch, rhs_batch, batch;  // batch dims of lhs, rhs (rank-aligned) and the output
  int64_t rows = 0, cols = 0, depth = 0, rhs_depth = 0;
  bool broadcasts = true;
};

Geometry geometry(const Graph& graph, const Op& op) {
  const BatchMatmulOptions& options = *options_if<BatchMatmulOptions>(op);
  std::vector<int32_t> lhs = graph.tensor(op.inputs[0]).shape, rhs = graph.tensor(op.inputs[1]).shape;
  const size_t rank = std::max(lhs.size(), rhs.size());
  lhs.insert(lhs.begin(), rank - lhs.size(), 1);
  rhs.insert(rhs.begin(), rank - rhs.size(), 1);
  Geometry g;
  g.lhs_batch.assign(lhs.begin(), lhs.end() - 2);
  g.rhs_batch.assign(rhs.begin(), rhs.end() - 2);
  g.broadcasts = broadcast_shape(g.lhs_batch, g.rhs_batch, &g.batch);
  g.rows = options.adj_x ? lhs[rank - 1] : lhs[rank - 2];
  g.depth = options.adj_x ? lhs[rank - 2] : lhs[rank - 1];
  g.rhs_depth = options.adj_y ? rhs[rank - 1] : rhs[rank - 2];
  g.cols = options.adj_y ? rhs[rank - 2] : rhs[rank - 1];
  return g;
}

void check_operand(const Graph& graph, const Op& op, int index) {
  const int id = input_id(graph, op, index);
  const std::string role = "input " + std::to_string(index);
  const size_t rank = graph.tensor(id).shape.size();
  expect_tensor(rank >= 2 && rank <= 5, graph, op, id, role,
                "rank " + std::to_string(rank) + " is not supported (2 to 5, as TFLite Micro)");
  for (int32_t dim : graph.tensor(id).shape) expect_tensor(dim > 0, graph, op, id, role, "has an empty or unknown dimension");
}

// float(lhs_scale * rhs_scale) / output_scale, the product rounded to float first as TFLite does.
QuantizedMultiplier output_multiplier(const Graph& graph, const Op& op) {
  const float product_scale = graph.tensor(op.inputs[0]).quant.scale[0] * graph.tensor(op.inputs[1]).quant.scale[0];
  return quantize_multiplier(static_cast<double>(product_scale) /
                             static_cast<double>(graph.tensor(op.outputs[0]).quant.scale[0]));
}

// Quantized per tensor, int16 symmetric (as the binary element-wise operators), and a shift the int16 rescale takes.
void check_quantization(const Graph& graph, const Op& op) {
  check_binary_quantization(graph, op);
  // TFLite's 64-bit rescale of the int16 sums takes shifts up to 7.
  expect_op(graph.tensor(op.inputs[0]).dtype != DType::kInt16 || output_multiplier(graph, op).shift <= 7, graph, op,
            "int16: the output scale is more than 128 times smaller than the product of the input scales");
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 2, 2, 1);
  expect_version(graph, op, kMaxVersion);
  const int lhs = input_id(graph, op, 0), out = output_id(graph, op, 0);
  expect_dtype(graph, op, lhs, "input 0", {DType::kFloat32, DType::kInt8, DType::kInt16});
  expect_dtype(graph, op, input_id(graph, op, 1), "input 1", {graph.tensor(lhs).dtype});
  expect_dtype(graph, op, out, "output 0", {graph.tensor(lhs).dtype});
  check_operand(graph, op, 0);
  check_operand(graph, op, 1);
  const Geometry g = geometry(graph, op);
  expect_op(g.broadcasts, graph, op, "the batch dimensions of the inputs cannot be broadcast together");
  expect_op(g.depth == g.rhs_depth, graph, op,
            "the inputs' depths differ (" + std::to_string(g.depth) + " and " + std::to_string(g.rhs_depth) + ")");
  int64_t elements = g.rows * g.cols;
  for (int32_t dim : g.batch) elements *= dim;
  expect_tensor(graph.tensor(out).num_elements() == elements && elements <= INT32_MAX, graph, op, out, "output 0",
                "has " + std::to_string(graph.tensor(out).num_elements()) + " elements, the product has " +
                    std::to_string(elements));
  if (graph.tensor(lhs).dtype != DType::kFloat32) check_quantization(graph, op);
}

// The batch walk (ops/broadcast.h merges it as for element-wise operators), strides scaled to matrices.
void set_geometry_params(const Graph& graph, const Op& op, KernelCall& call) {
  const BatchMatmulOptions& options = *options_if<BatchMatmulOptions>(op);
  const Geometry g = geometry(graph, op);
  BroadcastPlan plan = plan_broadcast({g.lhs_batch, g.rhs_batch}, g.batch);
  if (plan.shape.empty()) plan = {{1}, {{0}, {0}}};
  for (int64_t& s : plan.strides[0]) s *= g.rows * g.depth;
  for (int64_t& s : plan.strides[1]) s *= g.depth * g.cols;
  call.params.set_int("batch_dims", static_cast<int64_t>(plan.shape.size()));
  call.params.set_ints("batch_shape", plan.shape);
  call.params.set_ints("lhs_batch_strides", plan.strides[0]);
  call.params.set_ints("rhs_batch_strides", plan.strides[1]);
  call.params.set_int("rows", g.rows);
  call.params.set_int("cols", g.cols);
  call.params.set_int("depth", g.depth);
  call.params.set_int("lhs_row_stride", options.adj_x ? 1 : g.depth);
  call.params.set_int("lhs_depth_stride", options.adj_x ? g.rows : 1);
  call.params.set_int("rhs_depth_stride", options.adj_y ? 1 : g.cols);
  call.params.set_int("rhs_col_stride", options.adj_y ? g.depth : 1);
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& lhs = graph.tensor(op.inputs[0]);
  KernelCall call;
  call.stem = std::string("batch_matmul_") + dtype_short_name(lhs.dtype);
  call.args = {op.inputs[0], op.inputs[1], op.outputs[0]};
  set_geometry_params(graph, op, call);
  if (lhs.dtype == DType::kFloat32) return call;
  call.params.set_int("lhs_offset", -lhs.quant.zero_point[0]);
  call.params.set_int("rhs_offset", -graph.tensor(op.inputs[1]).quant.zero_point[0]);
  set_output_rescale_params(graph, op, output_multiplier(graph, op), call);
  return call;
}

int64_t macs(const Graph& graph, const Op& op) {
  return graph.tensor(op.outputs[0]).num_elements() * geometry(graph, op).depth;
}

// Below this many MACs per output matrix the portable kernel is as fast as the DSP kernel, whose widening into
// scratch costs per call, per matrix and per row pair (Cortex-M4: 30 MACs, 902 instructions against 944; 60 MACs,
// ../shared/ops/BATCH_MATMUL/int8_2x3x4_by_2x5x4_adjy, 3,125 -> 2,416).
constexpr int64_t kDotMinMacs = 32;

// The int8 family's chooser (compile/choose_variants.h): on a DSP target the dot-product kernel, its scratch sized
// by the rule it lays the scratch out by (runtime/include/microaot/fit/batch_matmul.h).
void choose(const Graph&, const Op&, const Target& target, KernelCall& call) {
  if (call.stem != "batch_matmul_s8" || !has_specialisation_for(call.stem, target)) return;
  const microaot_batch_matmul_params_q params = MICROAOT_PARAMS_STRUCT(batch_matmul_params_q, call.params);
  const int64_t matrix_macs = int64_t{params.rows} * params.cols * params.depth;
  if (matrix_macs < kDotMinMacs) {
    call.specialisation = "one element at a time: " + std::to_string(matrix_macs) + " MACs per matrix, below the " +
                          std::to_string(kDotMinMacs) + " that pay for the DSP kernel's widening";
    return;
  }
  if (!microaot_fit_bmm_dot(&params)) {
    call.specialisation = "one element at a time: the output scale is more than 2^21 times the product of the input "
                          "scales (beyond the DSP output step's right shifts)";
    return;
  }
  call.stem = "batch_matmul_s8_dot";
  call.scratch_bytes = microaot_bmm_dot_scratch_bytes(&params);
  call.specialisation = "two rows by two columns, 16 MACs per 12 instructions (SMLAD) over int16 words widened into "
                        "scratch with the offsets: the RHS once per matrix, the LHS a row pair at a time";
}

}  // namespace

extern const OpHandler batch_matmul_handler = {check,   lower, macs, /*is_view=*/false, nullptr, read_options,
                                               /*state_copy_bytes=*/nullptr, choose};

}  // namespace microaot
