// Blobs checked on the host with the firmware's own loader (runtime/executor/graph_load.c): a firmware table
// of every registry kernel whose entries check what a step hands them instead of computing. The loader's
// unit tests and its fuzzer (fuzz/blob_fuzzer.cpp) run blobs through it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "microaot/graph.h"

namespace microaot {

// What a checked run saw go wrong; empty when every step stayed inside the blob and the arena.
struct BlobCheck {
  microaot_status init = MICROAOT_STATUS_OK;
  microaot_status run = MICROAOT_STATUS_OK;
  uint32_t steps = 0;  // entries called
  uint32_t missing_kernel = MICROAOT_BLOB_NONE;  // init's MISSING_KERNEL: the first kernel id not linked
  std::string problem;
};

// Validates `blob` (copied to an aligned buffer) with a firmware that links every registry kernel (or, given
// `linked`, those kernel ids only: a firmware folder's) and holds `max_inputs` inputs; when init accepts it,
// runs every step with entries that decode the parameter record into a buffer of the struct's exact size and
// check that each argument and the scratch lie inside the blob or the arena.
BlobCheck check_blob(const std::vector<uint8_t>& blob, uint32_t max_inputs = 4,
                     const std::vector<int>* linked = nullptr);

}  // namespace microaot
