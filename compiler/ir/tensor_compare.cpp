#include "ir/tensor_compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace microaot {

namespace {
template <typename T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes, size_t count) {
  std::vector<T> values(count);
  if (count > 0) std::memcpy(values.data(), bytes.data(), count * sizeof(T));
  return values;
}

// Element by element; `tolerant` applies the float tolerance, else values must be equal.
template <typename T>
TensorDiff compare_as(const std::vector<uint8_t>& got_bytes, const std::vector<uint8_t>& want_bytes, bool tolerant) {
  TensorDiff d;
  d.elements = want_bytes.size() / sizeof(T);
  const std::vector<T> got = values_of<T>(got_bytes, d.elements);
  const std::vector<T> want = values_of<T>(want_bytes, d.elements);
  double max_ref = 1.0;
  for (size_t i = 0; tolerant && i < d.elements; ++i) max_ref = std::max(max_ref, std::fabs(static_cast<double>(want[i])));
  for (size_t i = 0; i < d.elements; ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    if (!(diff <= d.max_abs_diff)) d.max_abs_diff = std::isnan(diff) ? std::numeric_limits<double>::infinity() : diff;
    const bool same = tolerant ? diff <= 1e-4 * std::fabs(static_cast<double>(want[i])) + 1e-5 * max_ref
                               : got[i] == want[i];
    if (!same && d.differing++ == 0) {
      d.first = i;
      d.first_got = static_cast<double>(got[i]);
      d.first_want = static_cast<double>(want[i]);
    }
  }
  return d;
}
}  // namespace

TensorDiff compare_tensor_data(DType dtype, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  TensorDiff d;
  if (got.size() == want.size()) {
    switch (dtype) {
      case DType::kFloat32: d = compare_as<float>(got, want, true); break;
      case DType::kInt8: d = compare_as<int8_t>(got, want, false); break;
      case DType::kUInt8: d = compare_as<uint8_t>(got, want, false); break;
      case DType::kInt16: d = compare_as<int16_t>(got, want, false); break;
      case DType::kInt32: d = compare_as<int32_t>(got, want, false); break;
      case DType::kInt64: d = compare_as<int64_t>(got, want, false); break;
      case DType::kBool:
      case DType::kUnsupported: d = compare_as<uint8_t>(got, want, false); break;
    }
  }
  d.same_size = got.size() == want.size();
  d.got_bytes = got.size();
  d.want_bytes = want.size();
  return d;
}

std::string describe_difference(const TensorDiff& d) {
  if (!d.same_size) return "size " + std::to_string(d.got_bytes) + " bytes, want " + std::to_string(d.want_bytes);
  if (d.differing == 0) return "";
  std::ostringstream out;
  out << "element " << d.first << ": got " << d.first_got << ", want " << d.first_want << " (" << d.differing
      << " of " << d.elements << " differ)";
  return out.str();
}

DType dtype_from_name(const std::string& name) {
  for (DType type : {DType::kFloat32, DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64,
                     DType::kBool}) {
    if (name == dtype_name(type)) return type;
  }
  return DType::kUnsupported;
}

}  // namespace microaot
