// How far an op's output may be shifted forward over an input that dies at the op (in-place reuse): the
// largest shift = offset(output) - offset(input), in bytes (may be negative), for which the kernel never
// stores a byte that it still has to read. Dependency-free, so that the runtime's kernel tests use the very
// same bounds. Every constraint has the form shift <= c, so any smaller shift is safe too.
#pragma once

#include <algorithm>
#include <cstdint>

namespace microaot {

// The access order of a row-wise kernel in its overlap flavor (runtime/include/microaot/kernels/conv.h,
// pooling.h) on batch-major NHWC tensors, where one output row (batch b, output y: every x and channel) is
// output_row_bytes contiguous bytes and one input row input_row_bytes: rows are done in order (b, y), each
// computed from reads of input rows at or after max(0, y * stride - pad) of batch b, and then stored whole.
// Taking row max(0, ...) and its first byte as the earliest read is exact for y * stride >= pad and
// conservative otherwise (dilation or column padding can only make the first real read later).
struct RowWiseAccess {
  int64_t batches = 1;
  int64_t input_height = 1, output_height = 1;
  int64_t input_row_bytes = 0, output_row_bytes = 0;
  int64_t stride = 1;  // input rows between the windows of consecutive output rows
  int64_t pad = 0;     // padding rows before the first input row
};

// After output row r = b * output_height + y is stored, the reads still to come begin at input row
// clamp((y + 1) * stride - pad, 0, input_height) of batch b (or at batch b + 1 after its last row), so:
//   shift + (r + 1) * output_row_bytes <= first_unread_byte(r)   for every row but the very last.
// One output row alone gives no constraint: the input's size is returned (no overlap beyond it).
inline int64_t row_wise_max_shift(const RowWiseAccess& a) {
  const int64_t rows = a.batches * a.output_height;
  int64_t bound = a.batches * a.input_height * a.input_row_bytes;
  for (int64_t r = 0; r + 1 < rows; ++r) {
    const int64_t b = r / a.output_height;
    const int64_t y = r % a.output_height;
    const int64_t next = y + 1 < a.output_height ? std::clamp((y + 1) * a.stride - a.pad, int64_t{0}, a.input_height)
                                                 : a.input_height;  // the next batch starts right after this one
    const int64_t first_unread_byte = (b * a.input_height + next) * a.input_row_bytes;
    bound = std::min(bound, first_unread_byte - (r + 1) * a.output_row_bytes);
  }
  return bound;
}

// An element-wise kernel that reads element i (input_size bytes) before it stores element i (output_size
// bytes) and goes in index order: after element i is stored, reads resume at element i + 1, so
//   shift + (i + 1) * output_size <= (i + 1) * input_size   for i in [0, elements - 2],
// whose minimum is at i = 0 when input_size >= output_size (0 for equal sizes) and at i = elements - 2
// otherwise. A single element gives no constraint: the input's size is returned.
inline int64_t element_wise_max_shift(int64_t elements, int64_t input_size, int64_t output_size) {
  if (elements <= 1) return elements * input_size;
  if (input_size >= output_size) return input_size - output_size;
  return (elements - 1) * (input_size - output_size);
}

}  // namespace microaot
