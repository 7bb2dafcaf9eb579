// Ops that only move bytes, seen as byte ranges: passes that rewrite data movement (ring_windows.cpp) ask
// the handlers, which know each op's geometry, instead of working it out again.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/graph.h"

namespace microaot {

// A checked CONCATENATION whose output is its inputs' bytes end to end, in order: every output dimension
// before the axis is 1.
bool concatenation_joins_bytes(const Graph& graph, const Op& op);

// A checked SLICE or STRIDED_SLICE whose output is one contiguous run of its input's bytes: the run's first
// byte; nullopt for any other slice (or an empty one).
std::optional<int64_t> slice_byte_offset(const Graph& graph, const Op& op);

}  // namespace microaot
