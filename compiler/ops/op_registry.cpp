// Binds each line of op_list.def to its handler object; an op without a handler fails to link.
#include "ops/op_handler.h"

namespace microaot {

#define MICROAOT_OP(kind, tflite_name, code, handler, options, family, data_input, types) extern const OpHandler handler##_handler;
#include "ir/op_list.def"
#undef MICROAOT_OP
extern const OpHandler custom_handler;  // OpKind::Custom, not a line of the list

namespace {
const OpHandler* const kHandlers[] = {
#define MICROAOT_OP(kind, tflite_name, code, handler, options, family, data_input, types) &handler##_handler,
#include "ir/op_list.def"
#undef MICROAOT_OP
};
static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) == kOpKindCount, "one handler per operator");
}  // namespace

const OpHandler& op_handler(OpKind kind) {
  return kind == OpKind::Custom ? custom_handler : *kHandlers[static_cast<int>(kind)];
}

}  // namespace microaot
