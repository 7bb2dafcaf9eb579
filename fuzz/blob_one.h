// One input of the blob loader's fuzzer: bytes taken as a model blob, with the checksum made right (the
// loader's other checks are what mutations should reach; the checksum itself has unit tests), validated
// by the firmware's loader and, when it accepts them, run through entries that check every address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace microaot::fuzz {

// Empty when the loader refused the bytes with a status, or accepted them and every step stayed inside the
// blob and the arena; else what went wrong.
std::string load_blob_once(const uint8_t* data, size_t size);

}  // namespace microaot::fuzz
