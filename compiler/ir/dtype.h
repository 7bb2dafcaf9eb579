// Element types of IR tensors and their properties.
#pragma once

#include <cstddef>
#include <cstdint>

namespace microaot {

enum class DType { kFloat32, kInt8, kUInt8, kInt16, kInt32, kInt64, kBool, kUnsupported };

size_t dtype_size(DType type);
// Short name used in reports and kernel symbols: "f32", "s8", "u8", "s16", "s32", "s64", "bool".
const char* dtype_short_name(DType type);
// Name used in reports and golden files: "float32", "int8", ...
const char* dtype_name(DType type);
// The C99 element type: "float", "int8_t", ...
const char* dtype_c_type(DType type);

}  // namespace microaot
