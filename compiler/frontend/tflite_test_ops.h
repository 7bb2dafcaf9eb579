// Test helper: the lines of ir/op_list.def as a test model writes them (builtin code, options union member,
// an options table with the format's defaults), so that reader tests and the fuzz recipe cover a new line
// of the list without being edited.
#pragma once

#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

#include "frontend/tflite_test_builder.h"
#include "ir/graph.h"

namespace microaot {
namespace tflite_test {

namespace listed_options {
using namespace tflite;  // so that Create##Table below finds every generated tflite::Create<Table>
// An operator listed with NONE carries no options table.
inline flatbuffers::Offset<void> CreateNONE(flatbuffers::FlatBufferBuilder&) { return 0; }
}  // namespace listed_options

using DefaultOptionsFn = flatbuffers::Offset<void> (*)(flatbuffers::FlatBufferBuilder&);

struct ListedOp {
  OpKind kind;
  const char* name;  // the TFLite BuiltinOperator name
  int code;
  tflite::BuiltinOptions options_type;
  DefaultOptionsFn default_options;  // writes the table with every field at its default
  const char* family;                // e.g. "elementwise"
};

inline constexpr ListedOp kListedOps[] = {
#define MICROAOT_OP(kind, tflite_name, code, handler, options, family, data_input, types)                           \
  {OpKind::kind, #tflite_name, code, tflite::BuiltinOptions::options,                           \
   [](flatbuffers::FlatBufferBuilder& fbb) { return listed_options::Create##options(fbb).Union(); }, #family},
#include "ir/op_list.def"
#undef MICROAOT_OP
};
inline constexpr size_t kListedOpCount = std::size(kListedOps);

// An operator of `listed` reading `inputs` and writing `outputs`, with its options table at the defaults.
inline OpSpec listed_op_spec(const ListedOp& listed, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
  OpSpec spec = op(listed.code, 1, std::move(inputs), std::move(outputs));
  spec.options_type = listed.options_type;
  if (listed.options_type != tflite::BuiltinOptions::NONE) spec.options = listed.default_options;
  return spec;
}

}  // namespace tflite_test
}  // namespace microaot
