#include "ops/in_place.h"

#include "ir/dtype.h"
#include "ops/in_place_bounds.h"
#include "support/diagnostics.h"

namespace microaot {

InPlaceOption row_wise_option(const Graph& graph, const Op& op, int stride_h, int pad_h) {
  const Tensor& input = graph.tensor(op.inputs[0]);
  const Tensor& output = graph.tensor(op.outputs[0]);
  MICROAOT_CHECK(input.shape.size() == 4 && output.shape.size() == 4 && input.shape[0] == output.shape[0],
                 "row-wise in-place option needs NHWC tensors with the same batches");
  RowWiseAccess access;
  access.batches = input.shape[0];
  access.input_height = input.shape[1];
  access.output_height = output.shape[1];
  access.input_row_bytes = input.byte_size() / (int64_t{input.shape[0]} * input.shape[1]);
  access.output_row_bytes = output.byte_size() / (int64_t{output.shape[0]} * output.shape[1]);
  access.stride = stride_h;
  access.pad = pad_h;
  InPlaceOption option;
  option.input = 0;
  option.output = 0;
  option.max_shift = row_wise_max_shift(access);
  option.variant = KernelVariant::kOverlap;
  option.scratch_bytes = access.output_row_bytes;
  return option;
}

InPlaceOption element_wise_option(const Graph& graph, const Op& op, int input, int output) {
  const Tensor& in = graph.tensor(op.inputs[input]);
  const Tensor& out = graph.tensor(op.outputs[output]);
  MICROAOT_CHECK(in.num_elements() == out.num_elements(), "element-wise in-place option needs equal counts");
  InPlaceOption option;
  option.input = input;
  option.output = output;
  option.max_shift = element_wise_max_shift(in.num_elements(), static_cast<int64_t>(dtype_size(in.dtype)),
                                            static_cast<int64_t>(dtype_size(out.dtype)));
  return option;
}

}  // namespace microaot
