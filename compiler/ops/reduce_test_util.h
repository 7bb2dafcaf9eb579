// For the handler tests of the reductions, CUMSUM, L2_NORMALIZATION and BATCH_MATMUL: an op over tensors
// 'x' (and a constant int32 axis 'axis' or a second operand 'y') writing 'out', and options read from a
// .tflite options table by the handler's own reader, as the frontend does.
#pragma once

#include <cstring>
#include <vector>

#include "ops/unary_test_util.h"
#include "tflite_schema_generated.h"

namespace microaot {

// x (in_type), a constant int32 axis tensor holding `axes` (shape [axes.size()]) and out (out_type).
inline Graph axis_graph(OpKind kind, DType in_type, const TensorSpec& in, const std::vector<int32_t>& axes,
                        DType out_type, const TensorSpec& out) {
  Graph g;
  Tensor axis;
  axis.name = "axis";
  axis.dtype = DType::kInt32;
  axis.shape = {static_cast<int32_t>(axes.size())};
  axis.is_constant = true;
  axis.data.resize(axes.size() * sizeof(int32_t));
  if (!axes.empty()) std::memcpy(axis.data.data(), axes.data(), axis.data.size());
  g.tensors = {spec_tensor("x", in_type, in), axis, spec_tensor("out", out_type, out)};
  g.ops.push_back(Op{kind, 0, 1, {0, 1}, {2}, {}});
  return g;
}

// Sets op 0's options from the table `make(fbb)` builds (of union type `type`), through the handler's reader.
template <typename Make>
void read_table_options(Graph& g, tflite::BuiltinOptions type, Make make) {
  flatbuffers::FlatBufferBuilder fbb;
  const flatbuffers::Offset<void> table = make(fbb);
  fbb.Finish(tflite::CreateOperator(fbb, 0, 0, 0, type, table));
  const auto* source = flatbuffers::GetRoot<tflite::Operator>(fbb.GetBufferPointer());
  g.ops[0].options = op_handler(g.ops[0].kind).read_options(g, g.ops[0], *source);
}

}  // namespace microaot
