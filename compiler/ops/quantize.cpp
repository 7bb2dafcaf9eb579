// QUANTIZE: float -> int8/int16 (TFLM's AffineQuantize) and integer -> integer requantization with the
// multiplier of input_scale / output_scale (TFLM's Requantize), as tflite-micro's quantize_common.cc: the
// type pairs it evaluates, int32 included.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/in_place.h"
#include "ops/op_checks.h"
#include "ops/op_handler.h"
#include "ops/quant_math.h"

namespace microaot {
namespace {

// One supported (input, output) type pair and the runtime kernel that converts it.
struct Variant {
  DType input;
  DType output;
  const char* kernel;  // the kernel stem (runtime/include/microaot/kernel_list.def)
};

constexpr Variant kVariants[] = {
    {DType::kFloat32, DType::kInt8, "quantize_f32_s8"},  {DType::kFloat32, DType::kInt16, "quantize_f32_s16"},
    {DType::kInt8, DType::kInt8, "requantize_s8_s8"},    {DType::kInt8, DType::kInt16, "requantize_s8_s16"},
    {DType::kInt8, DType::kUInt8, "requantize_s8_u8"},   {DType::kUInt8, DType::kInt8, "requantize_u8_s8"},
    {DType::kInt16, DType::kInt8, "requantize_s16_s8"},  {DType::kInt16, DType::kInt16, "requantize_s16_s16"},
    {DType::kInt8, DType::kInt32, "requantize_s8_s32"},  {DType::kInt16, DType::kInt32, "requantize_s16_s32"},
    {DType::kInt32, DType::kInt8, "requantize_s32_s8"},  {DType::kInt32, DType::kInt16, "requantize_s32_s16"},
};

const Variant* find_variant(DType input, DType output) {
  for (const Variant& v : kVariants) {
    if (v.input == input && v.output == output) return &v;
  }
  return nullptr;
}

std::string supported_pairs() {
  std::string text;
  for (const Variant& v : kVariants) {
    text += (text.empty() ? "" : ", ") + std::string(dtype_name(v.input)) + " -> " + dtype_name(v.output);
  }
  return text;
}

void check(const Graph& graph, const Op& op) {
  expect_arity(graph, op, 1, 1, 1);
  expect_version(graph, op, 3);
  const int in = input_id(graph, op, 0);
  const int out = output_id(graph, op, 0);
  const Tensor& input = graph.tensor(in);
  const Tensor& output = graph.tensor(out);
  expect_op(find_variant(input.dtype, output.dtype) != nullptr, graph, op,
            std::string(dtype_name(input.dtype)) + " -> " + dtype_name(output.dtype) +
                " is not supported (supported: " + supported_pairs() + ")");
  expect_same_elements(graph, op, in, out);
  expect_activation_quant(graph, op, out, "output 0");
  if (input.dtype != DType::kFloat32) expect_activation_quant(graph, op, in, "input 0");
}

KernelCall lower(const Graph& graph, const Op& op) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  KernelCall call;
  call.stem = find_variant(input.dtype, output.dtype)->kernel;
  call.args = {op.inputs[0], op.outputs[0]};
  const float out_scale = output.quant.scale[0];
  call.params.set_int("size", input.num_elements());
  call.params.set_int("output_offset", output.quant.zero_point[0]);
  if (input.dtype == DType::kFloat32) {
    call.params.set_float("output_scale", out_scale);
    return call;
  }
  // TFLM divides the two float scales in double before decomposing the ratio.
  const QuantizedMultiplier qm =
      quantize_multiplier(static_cast<double>(input.quant.scale[0]) / static_cast<double>(out_scale));
  call.params.set_int("input_offset", -input.quant.zero_point[0]);
  call.params.set_int("output_multiplier", qm.multiplier);
  call.params.set_int("output_shift", qm.shift);
  return call;
}

// The kernels convert element i right after reading it, in order.
std::vector<InPlaceOption> in_place(const Graph& graph, const Op& op) { return {element_wise_option(graph, op, 0, 0)}; }

// Element-wise conversion: no multiply-accumulates.
int64_t macs(const Graph&, const Op&) { return 0; }

}  // namespace

extern const OpHandler quantize_handler = {check, lower, macs, /*is_view=*/false, in_place};

}  // namespace microaot
