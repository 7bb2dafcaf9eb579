// The bytes of a recipe, read in order (graph_recipe.cpp, recurrent_recipe.cpp): past the end every read is 0, so
// any byte string is a recipe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace microaot::fuzz {

class Recipe {
 public:
  Recipe(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  template <typename T, size_t N>
  T pick(const T (&choices)[N]) { return choices[byte() % N]; }
  bool flag() { return byte() & 1; }
  int32_t in(int32_t lo, int32_t hi) { return lo + byte() % (hi - lo + 1); }  // lo..hi

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

}  // namespace microaot::fuzz
