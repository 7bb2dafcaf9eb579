#include "blob_one.h"

#include <vector>

#include "codegen/graph_check.h"
#include "microaot/graph.h"

namespace microaot::fuzz {

namespace {
void set_checksum(std::vector<uint8_t>& bytes) {
  if (bytes.size() < 4 * MICROAOT_BLOB_HEADER_WORDS) return;
  uint32_t declared = 0;
  for (int i = 0; i < 4; ++i) declared |= static_cast<uint32_t>(bytes[4 * MICROAOT_BLOB_W_BYTES + i]) << (8 * i);
  const size_t covered = declared >= 16 && declared <= bytes.size() ? declared : bytes.size();
  const uint32_t checksum = microaot_blob_checksum(bytes.data() + 16, covered - 16);
  for (int i = 0; i < 4; ++i) bytes[4 * MICROAOT_BLOB_W_CHECKSUM + i] = static_cast<uint8_t>(checksum >> (8 * i));
}
}  // namespace

std::string load_blob_once(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  set_checksum(bytes);
  return check_blob(bytes).problem;
}

}  // namespace microaot::fuzz
