// A computed tensor against a reference, as the golden files of ../shared say: integers bit for bit,
// float32 within |got - ref| <= 1e-4 * |ref| + 1e-5 * max(1, max |ref|), max |ref| taken over the whole
// reference tensor. The one comparison behind `bench`, `validate` and the end-to-end tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace microaot {

struct TensorDiff {
  bool same_size = true;
  size_t elements = 0;      // in the reference
  size_t differing = 0;     // elements outside the tolerance
  double max_abs_diff = 0;  // the largest |got - ref|; infinity when a NaN is involved
  size_t first = 0;         // the first differing element, and its values
  double first_got = 0;
  double first_want = 0;
  size_t got_bytes = 0;
  size_t want_bytes = 0;

  bool matches() const { return same_size && differing == 0; }
};

// Raw little-endian tensor bytes of `dtype`; a type without a numeric comparison (bool) compares bytes.
TensorDiff compare_tensor_data(DType dtype, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want);

// "" when it matches; else "size 10 bytes, want 12" or "element 3: got 5, want 7 (2 of 100 differ)".
std::string describe_difference(const TensorDiff& diff);

// The DType named `name` by dtype_name() ("int8", "float32", ...); kUnsupported when none is.
DType dtype_from_name(const std::string& name);

}  // namespace microaot
