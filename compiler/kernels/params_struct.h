// A runtime params struct (microaot_<name>, runtime/include/microaot/kernels/) filled from a call's params: its
// scalar fields as the kernel will receive them, its arrays NULL. The compiler's choosers evaluate the fit rules
// of runtime/include/microaot/fit/ on it, the same functions the runtime's guards call.
#pragma once

#include <cstdint>

#include "kernels/param_values.h"

namespace microaot::params_struct_detail {
inline void fill(int32_t& field, const ParamValue* value) {
  field = value != nullptr ? static_cast<int32_t>(value->integer) : 0;
}
inline void fill(float& field, const ParamValue* value) { field = value != nullptr ? value->real : 0.0f; }
template <typename T>
void fill(const T*& field, const ParamValue*) {
  field = nullptr;
}
}  // namespace microaot::params_struct_detail

#define MICROAOT_FILL_PARAMS_FIELD(kind, field) \
  ::microaot::params_struct_detail::fill(params_struct.field, values.find(#field));

// MICROAOT_PARAMS_STRUCT(pool_2d_params_q, call.params): a microaot_pool_2d_params_q.
#define MICROAOT_PARAMS_STRUCT(name, param_values)                     \
  [](const ::microaot::ParamValues& values) {                          \
    microaot_##name params_struct{};                                   \
    MICROAOT_FIELDS_##name(MICROAOT_FILL_PARAMS_FIELD) return params_struct; \
  }(param_values)
