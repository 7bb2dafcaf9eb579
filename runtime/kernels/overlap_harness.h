// Test harness for kernels whose output overlaps their input: places the input and the output in one
// buffer at a given shift (output - input, in bytes), runs the kernel there and returns the output bytes.
// The rest of the buffer and the scratch hold a fill pattern, so that any stray store shows.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace overlap_test {

// Bytes of a vector of values.
template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// n random values: floats uniform in [-float_bound, float_bound], integers uniform in [int_lo, int_hi] and
// wrapped to T's range.
template <typename T>
std::vector<T> random_values(size_t n, std::mt19937& rng, float float_bound, int64_t int_lo, int64_t int_hi) {
  std::vector<T> v(n);
  if constexpr (std::is_same_v<T, float>) {
    std::uniform_real_distribution<float> d(-float_bound, float_bound);
    for (T& x : v) x = d(rng);
  } else {
    std::uniform_int_distribution<int64_t> d(int_lo, int_hi);
    for (T& x : v) x = static_cast<T>(d(rng));
  }
  return v;
}

// Storage aligned to 16 bytes with `size` usable bytes, filled with 0xA5.
struct Arena {
  explicit Arena(size_t size) : storage((size + 16) / 8 + 2, 0) {
    auto address = reinterpret_cast<uintptr_t>(storage.data());
    base = reinterpret_cast<uint8_t*>((address + 15) / 16 * 16);
    std::fill(base, base + size, uint8_t{0xA5});
  }
  std::vector<uint64_t> storage;
  uint8_t* base;
};

// Runs run(input_address, output_address, scratch_address) with the output `shift` bytes after the input.
// The input starts at the smallest offset >= max(0, -shift) that aligns both the input (in_align) and the
// output (out_align); shifts that allow no such placement fail the test.
template <typename Run>
std::vector<uint8_t> run_overlapped(const std::vector<uint8_t>& input, size_t out_bytes, int64_t shift,
                                    size_t scratch_bytes, int64_t in_align, int64_t out_align, Run run) {
  int64_t in0 = std::max<int64_t>(0, -shift);
  const int64_t limit = in0 + in_align * out_align;
  while (in0 < limit && (in0 % in_align != 0 || (in0 + shift) % out_align != 0)) ++in0;
  EXPECT_LT(in0, limit) << "shift " << shift << " cannot align both buffers";
  const int64_t out0 = in0 + shift;
  const auto in_size = static_cast<int64_t>(input.size());
  Arena arena(static_cast<size_t>(std::max(in0 + in_size, out0 + static_cast<int64_t>(out_bytes))));
  if (!input.empty()) std::memcpy(arena.base + in0, input.data(), input.size());
  Arena scratch(std::max<size_t>(scratch_bytes, 1));
  run(arena.base + in0, arena.base + out0, static_cast<void*>(scratch.base));
  return std::vector<uint8_t>(arena.base + out0, arena.base + out0 + out_bytes);
}

}  // namespace overlap_test
