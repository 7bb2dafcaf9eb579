// The bytes of a bound params struct, for the interpreter executor to store beside the kernel id:
// the fields in declaration order, little-endian; I32 and F32 as 4 bytes; an array as a uint32 element
// count, its elements (1, 2 or 4 bytes each) and zero padding to a multiple of 4 bytes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kernels/param_values.h"

namespace microaot {

// `values` must be bound to `params` (ParamValues::bind).
std::vector<uint8_t> serialize_params(const ParamStruct& params, const ParamValues& values);

// The inverse; throws std::invalid_argument on bytes that are too short or too long for `params`.
ParamValues deserialize_params(const ParamStruct& params, const std::vector<uint8_t>& bytes);

}  // namespace microaot
