// Stack depth of functions that have no -fcallgraph-info graph (the C library's memcpy, memset, compiler
// helpers), read from the linked image's Thumb disassembly (`objdump -d`): the constant stack decrements of
// each function plus the deepest function it calls or branches to. Anything the scan cannot bound (sp set
// from a register, an unknown instruction writing sp, a call or jump through a register, recursion, a
// callee not in the image) makes the depth unbounded (-1), never a guess.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace microaot {

// One function of a disassembly: its instruction lines, in address order, and the function that follows
// it in the image (reached by falling through its last instruction; empty for the last one).
struct DisassembledFunction {
  std::vector<std::string> lines;
  std::string next;
};
using Disassembly = std::map<std::string, DisassembledFunction>;

// Splits `objdump -d` text at its function headers ("00008320 <memset>:").
Disassembly parse_disassembly(const std::string& objdump_text);

// The deepest stack use of `name` and what it calls, in bytes; -1 = unbounded.
int64_t disassembled_stack_depth(const Disassembly& code, const std::string& name);

// Runs `objdump_tool -d elf` and parses it. Throws CompileError when the tool fails.
Disassembly disassemble(const std::string& objdump_tool, const std::string& elf);

}  // namespace microaot
