/* Kernel parameter structs are described once, as X-macro field lists, and this header turns a list into
 * the C struct. The compiler expands the same lists into its typed view of every struct (field names and
 * kinds, in order), from which it emits the constant initializers and the serialized bytes the interpreter
 * reads. A struct `microaot_<name>` is described by MICROAOT_FIELDS_<name>(X), which calls X(KIND, field)
 * once per field, in declaration order. KIND is one of the scalar kinds I32 and F32, or an array kind
 * (I8_ARRAY, I16_ARRAY, I32_ARRAY, F32_ARRAY): a pointer to constant elements the compiler emits to flash. */
#ifndef MICROAOT_PARAMS_H
#define MICROAOT_PARAMS_H

#include <stdint.h>

#define MICROAOT_PARAM_TYPE_I32 int32_t
#define MICROAOT_PARAM_TYPE_F32 float
#define MICROAOT_PARAM_TYPE_I8_ARRAY const int8_t*
#define MICROAOT_PARAM_TYPE_I16_ARRAY const int16_t*
#define MICROAOT_PARAM_TYPE_I32_ARRAY const int32_t*
#define MICROAOT_PARAM_TYPE_F32_ARRAY const float*

#define MICROAOT_PARAM_MEMBER(kind, field) MICROAOT_PARAM_TYPE_##kind field;

/* typedef struct { ...fields of MICROAOT_FIELDS_<name>... } microaot_<name>; */
#define MICROAOT_DEFINE_PARAMS(name) \
  typedef struct {                   \
    MICROAOT_FIELDS_##name(MICROAOT_PARAM_MEMBER)   \
  } microaot_##name;

#endif /* MICROAOT_PARAMS_H */
