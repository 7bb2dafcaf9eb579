// SHA-256 (FIPS 180-4), for the model hash recorded with every output: small, dependency-free, streaming.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace microaot {

class Sha256 {
 public:
  Sha256();
  void update(const uint8_t* data, size_t size);
  void update(const std::string& text);
  // The lower-case hex digest of everything passed to update(); call once, as the last call.
  std::string finish_hex();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> block_{};
  size_t block_used_ = 0;
  uint64_t total_bytes_ = 0;
};

// Lower-case hex digest of `bytes`, 64 characters.
std::string sha256_hex(const std::vector<uint8_t>& bytes);
std::string sha256_hex(const std::string& bytes);

}  // namespace microaot
