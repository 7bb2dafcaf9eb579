// --custom-op NAME=HEADER[,function=FN][,scratch=BYTES]: binds an operator to the user's C function.
#pragma once

#include <string>
#include <vector>

#include "ir/custom_op.h"

namespace microaot {

// One --custom-op value, without reading the header. Throws UsageError for a malformed value: no '=', an
// empty or non-identifier NAME or function, a header that is not a plain "*.h" file name, an unknown or
// repeated key, a bad scratch size.
CustomOpBinding parse_custom_op(const std::string& text);

// Every --custom-op value, checked together (a NAME given twice, two headers with the same file name),
// with each header's text read. Throws UsageError for the values, CompileError for a header that cannot
// be read.
CustomOpBindings resolve_custom_ops(const std::vector<std::string>& texts);

}  // namespace microaot
