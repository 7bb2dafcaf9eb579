// merge_quantize: an integer -> integer QUANTIZE leaves the graph where every output value provably stays the
// same, checked over all input values with the requantize kernel's own arithmetic: a copy (type, scale and zero
// point unchanged), or the requantize of an int8 table op whose table, rebuilt for the QUANTIZE's output,
// equals the table followed by the requantize.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "microaot/fixedpoint.h"
#include "ops/op_handler.h"
#include "passes/pass.h"
#include "support/diagnostics.h"
#include "target/target.h"

namespace microaot {
namespace {

struct Range {
  int32_t lo, hi;
};

std::optional<Range> integer_range(DType type) {
  if (type == DType::kInt8) return Range{INT8_MIN, INT8_MAX};
  if (type == DType::kInt16) return Range{INT16_MIN, INT16_MAX};
  return std::nullopt;
}

// The op's kernel call (check and lower, as the compiler will), or nothing when its handler refuses it.
std::optional<KernelCall> lowered(const Graph& graph, const Op& op) {
  const OpHandler& handler = op_handler(op.kind);
  if (handler.is_view || handler.lower == nullptr) return std::nullopt;  // moves no value: nothing to merge into
  try {
    handler.check(graph, op);
    return handler.lower(graph, op);
  } catch (const CompileError&) {
    return std::nullopt;
  }
}

int64_t param(const KernelCall& call, const char* field) {
  const ParamValue* v = call.params.find(field);
  MICROAOT_CHECK(v != nullptr, "requantize call without its params");
  return v->integer;
}

// The QUANTIZE's output for every input value, from the lowest up, as the requantize kernel computes it.
std::optional<std::vector<int32_t>> requantize_table(const Graph& graph, const Op& quantize) {
  const std::optional<Range> in = integer_range(graph.tensor(quantize.inputs[0]).dtype);
  const std::optional<Range> out = integer_range(graph.tensor(quantize.outputs[0]).dtype);
  const std::optional<KernelCall> call = lowered(graph, quantize);
  if (!in || !out || !call) return std::nullopt;
  const auto input_offset = static_cast<int32_t>(param(*call, "input_offset"));
  const auto multiplier = static_cast<int32_t>(param(*call, "output_multiplier"));
  const auto shift = static_cast<int>(param(*call, "output_shift"));
  const int64_t output_offset = param(*call, "output_offset");
  // Values the handler's checks already bound; outside them the arithmetic below would not be the kernel's.
  if (shift < -31 || shift > 31 || input_offset < -65536 || input_offset > 65536) return std::nullopt;
  std::vector<int32_t> table;
  for (int32_t x = in->lo; x <= in->hi; ++x) {
    const int64_t y = int64_t{microaot_multiply_by_quantized_multiplier(x + input_offset, multiplier, shift)} +
                      output_offset;
    table.push_back(static_cast<int32_t>(std::clamp<int64_t>(y, out->lo, out->hi)));
  }
  return table;
}

bool is_graph_output(const Graph& graph, int id) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), id) != graph.outputs.end();
}

int readers(const Graph& graph, int id) {
  int count = 0;
  for (const Op& op : graph.ops) count += static_cast<int>(std::count(op.inputs.begin(), op.inputs.end(), id));
  return count;
}

// A copy: same type, scale and zero point, and (checked, not assumed) every value maps onto itself. Its
// readers take its input instead; a graph output keeps its tensor, so its QUANTIZE stays.
bool drop_copy(Graph& graph, const Op& quantize) {
  const Tensor& in = graph.tensor(quantize.inputs[0]);
  const Tensor& out = graph.tensor(quantize.outputs[0]);
  if (in.dtype != out.dtype || in.quant.scale != out.quant.scale || in.quant.zero_point != out.quant.zero_point ||
      is_graph_output(graph, quantize.outputs[0])) {
    return false;
  }
  const std::optional<std::vector<int32_t>> table = requantize_table(graph, quantize);
  if (!table) return false;
  for (size_t i = 0; i < table->size(); ++i) {
    if ((*table)[i] != integer_range(in.dtype)->lo + static_cast<int32_t>(i)) return false;
  }
  for (Op& op : graph.ops) std::replace(op.inputs.begin(), op.inputs.end(), quantize.outputs[0], quantize.inputs[0]);
  return true;
}

// An int8 op computed through a 256-entry table (the "lut" kernel): its table.
std::optional<std::vector<int64_t>> lut_table(const Graph& graph, const Op& op) {
  const std::optional<KernelCall> call = lowered(graph, op);
  if (!call || call->stem != "lut_s8" || graph.tensor(op.outputs[0]).dtype != DType::kInt8) return std::nullopt;
  const ParamValue* table = call->params.find("table");
  if (table == nullptr || table->integers.size() != 256) return std::nullopt;
  return table->integers;
}

// The table op producing the QUANTIZE's input writes the QUANTIZE's output directly, when the table it
// builds for that output equals its own table followed by the requantize, for all 256 inputs.
bool merge_into_table_op(Graph& graph, const Op& quantize) {
  const int between = quantize.inputs[0];
  const auto producer = std::find_if(graph.ops.begin(), graph.ops.end(), [between](const Op& op) {
    return op.outputs.size() == 1 && op.outputs[0] == between;
  });
  if (producer == graph.ops.end() || readers(graph, between) != 1 || is_graph_output(graph, between)) return false;
  const std::optional<std::vector<int64_t>> table = lut_table(graph, *producer);
  const std::optional<std::vector<int32_t>> requantize = requantize_table(graph, quantize);
  Op merged = *producer;
  merged.outputs[0] = quantize.outputs[0];
  const std::optional<std::vector<int64_t>> rebuilt = lut_table(graph, merged);
  if (!table || !requantize || !rebuilt) return false;
  for (size_t x = 0; x < table->size(); ++x) {
    const int64_t entry = (*table)[x];
    if (entry < INT8_MIN || entry > INT8_MAX) return false;
    if ((*rebuilt)[x] != (*requantize)[static_cast<size_t>(entry - INT8_MIN)]) return false;
  }
  *producer = merged;
  return true;
}

}  // namespace

bool merge_quantize(Graph& graph, PassContext& /*ctx*/) {
  bool changed = false;
  for (size_t i = 0; i < graph.ops.size();) {
    const Op quantize = graph.ops[i];
    const bool merged = quantize.kind == OpKind::Quantize && (drop_copy(graph, quantize) ||
                                                              merge_into_table_op(graph, quantize));
    if (merged) {
      graph.ops.erase(graph.ops.begin() + static_cast<std::ptrdiff_t>(i));
      changed = true;
    } else {
      ++i;
    }
  }
  return changed;
}

}  // namespace microaot
