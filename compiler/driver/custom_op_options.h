// --custom-op NAME=HEADER[,function=FN][,scratch=BYTES]: binds an operator to the user's C function.
#pragma once

#include <map>
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

// The user's C sources that run, bench and validate build with the library for the bound functions, as
// "custom/<file name>" -> text: each --custom-source FILE.c, or, when none is given, the .c beside each
// binding's header (clip_scale.c beside clip_scale.h). Throws CompileError when a binding has neither or a
// source cannot be read, UsageError for a file not named NAME.c or two with one name.
std::map<std::string, std::string> custom_source_files(const CustomOpBindings& bindings,
                                                      const std::vector<std::string>& sources);

}  // namespace microaot
