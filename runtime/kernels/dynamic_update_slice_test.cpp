// DYNAMIC_UPDATE_SLICE kernel: every output element against an independent per-element rule (inside the
// clamped window: the update's element, else the operand's), clamping on both sides, int32 and int64
// starts, element sizes 1, 2 and 4, in place over the operand, and a dimension the update fills.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "microaot/kernels/dynamic_update_slice.h"

namespace {

struct Case {
  std::vector<int32_t> operand_dims, update_dims;
  std::vector<int64_t> starts;  // as given, before clamping
};

// The expected output of element type T by the rule, coordinate by coordinate.
template <typename T>
std::vector<T> expected(const Case& c, const std::vector<T>& operand, const std::vector<T>& update) {
  const size_t rank = c.operand_dims.size();
  std::vector<int64_t> start(rank);
  for (size_t d = 0; d < rank; ++d) {
    start[d] = std::clamp<int64_t>(c.starts[d], 0, c.operand_dims[d] - c.update_dims[d]);
  }
  std::vector<T> out(operand.size());
  for (size_t flat = 0; flat < operand.size(); ++flat) {
    std::vector<int64_t> coord(rank);
    size_t rest = flat;
    for (size_t d = rank; d-- > 0;) {
      coord[d] = static_cast<int64_t>(rest % static_cast<size_t>(c.operand_dims[d]));
      rest /= static_cast<size_t>(c.operand_dims[d]);
    }
    bool inside = true;
    size_t update_flat = 0;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t u = coord[d] - start[d];
      inside = inside && u >= 0 && u < c.update_dims[d];
      update_flat = update_flat * static_cast<size_t>(c.update_dims[d]) + static_cast<size_t>(u);
    }
    out[flat] = inside ? update[update_flat] : operand[flat];
  }
  return out;
}

size_t count(const std::vector<int32_t>& dims) {
  size_t n = 1;
  for (int32_t d : dims) n *= static_cast<size_t>(d);
  return n;
}

microaot_dynamic_update_slice_params params_for(const Case& c, int32_t element_bytes, int32_t index_bytes) {
  return {static_cast<int32_t>(c.operand_dims.size()), element_bytes, index_bytes, c.operand_dims.data(),
          c.update_dims.data()};
}

// Runs the kernel with int32 and with int64 starts, out of place and in place, on values of type T.
template <typename T>
void check_case(const Case& c) {
  std::vector<T> operand(count(c.operand_dims)), update(count(c.update_dims));
  for (size_t i = 0; i < operand.size(); ++i) operand[i] = static_cast<T>(i % 97);
  for (size_t i = 0; i < update.size(); ++i) update[i] = static_cast<T>(-1 - static_cast<int>(i % 53));
  const std::vector<T> want = expected(c, operand, update);
  const std::vector<int32_t> starts32(c.starts.begin(), c.starts.end());
  for (int32_t index_bytes : {4, 8}) {
    const void* starts = index_bytes == 8 ? static_cast<const void*>(c.starts.data()) : starts32.data();
    const auto p = params_for(c, sizeof(T), index_bytes);
    std::vector<T> out(operand.size(), T(7));
    microaot_dynamic_update_slice(&p, operand.data(), update.data(), starts, out.data());
    EXPECT_EQ(out, want) << "index bytes " << index_bytes;
    std::vector<T> in_place = operand;
    microaot_dynamic_update_slice(&p, in_place.data(), update.data(), starts, in_place.data());
    EXPECT_EQ(in_place, want) << "in place, index bytes " << index_bytes;
  }
}

TEST(DynamicUpdateSlice, StartsInsideTheOperand) {
  check_case<float>({{1, 6, 6, 2}, {1, 2, 3, 2}, {0, 3, 2, 0}});
  check_case<int8_t>({{4, 5}, {2, 3}, {1, 1}});
}

TEST(DynamicUpdateSlice, StartsAreClampedNotRefused) {
  // Past the end: moved back so the update ends at the last element; negative: moved to 0.
  check_case<int16_t>({{4, 5}, {2, 3}, {3, 4}});
  check_case<int16_t>({{4, 5}, {2, 3}, {-7, 1}});
  check_case<int32_t>({{3, 4, 5}, {2, 2, 2}, {INT32_MAX, -1, 2}});
}

TEST(DynamicUpdateSlice, UpdateAsLargeAsTheOperandReplacesIt) {
  check_case<float>({{2, 3}, {2, 3}, {5, -5}});
}

TEST(DynamicUpdateSlice, AnEmptyUpdateCopiesTheOperand) {
  check_case<int8_t>({{3, 4}, {0, 2}, {1, 1}});
}

TEST(DynamicUpdateSlice, NoStartIsReadWhereTheUpdateFillsTheDimension) {
  // A scalar lowers to rank 1, dims [1]: the start tensor is empty; a null pointer proves it is not read.
  const int32_t dims[] = {1};
  const microaot_dynamic_update_slice_params p = {1, 4, 4, dims, dims};
  const float operand = 1.5f, update = -2.5f;
  float out = 0.0f;
  microaot_dynamic_update_slice(&p, &operand, &update, nullptr, &out);
  EXPECT_EQ(out, -2.5f);
}

}  // namespace
