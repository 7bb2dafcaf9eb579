#include "ir/dtype.h"

#include "support/diagnostics.h"

namespace microaot {

namespace {
struct DTypeInfo {
  size_t size;
  const char* short_name;
  const char* name;
  const char* c_type;
};

DTypeInfo info(DType type) {
  switch (type) {
    case DType::kFloat32: return {4, "f32", "float32", "float"};
    case DType::kInt8: return {1, "s8", "int8", "int8_t"};
    case DType::kUInt8: return {1, "u8", "uint8", "uint8_t"};
    case DType::kInt16: return {2, "s16", "int16", "int16_t"};
    case DType::kInt32: return {4, "s32", "int32", "int32_t"};
    case DType::kInt64: return {8, "s64", "int64", "int64_t"};
    case DType::kBool: return {1, "bool", "bool", "uint8_t"};
    case DType::kUnsupported: break;
  }
  return {0, "unsupported", "unsupported", "void"};
}
}  // namespace

size_t dtype_size(DType type) { return info(type).size; }
const char* dtype_short_name(DType type) { return info(type).short_name; }
const char* dtype_name(DType type) { return info(type).name; }
const char* dtype_c_type(DType type) { return info(type).c_type; }

}  // namespace microaot
