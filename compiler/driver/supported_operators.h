// The operator x type table that `microaot inspect --supported` prints and docs/operators.md holds: one row
// per line of ir/op_list.def, one column per type, in Markdown.
#pragma once

#include <string>

namespace microaot {

std::string supported_operators_markdown();

}  // namespace microaot
