#include "driver/disassembly_stack.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <sstream>

#include "driver/output_dir.h"
#include "support/diagnostics.h"
#include "support/process.h"

namespace microaot {

Disassembly parse_disassembly(const std::string& objdump_text) {
  static const std::regex header(R"(^[0-9a-f]+ <([^>]+)>:$)");
  Disassembly code;
  DisassembledFunction* current = nullptr;
  std::istringstream in(objdump_text);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, header)) {
      if (current != nullptr) current->next = m[1];
      current = &code[m[1]];
    } else if (line.rfind("Disassembly of section", 0) == 0) {
      current = nullptr;  // another section does not follow on in memory
    } else if (current != nullptr && line.find(":\t") != std::string::npos) {
      current->lines.push_back(line);
    }
  }
  return code;
}

namespace {
constexpr int64_t kUnbounded = -1;

// "    8322:\tb530      \tpush\t{r4, r5, lr}\t@ comment" -> mnemonic "push", operands "{r4, r5, lr}".
struct Instruction {
  std::string mnemonic;
  std::string operands;
  std::string base() const { return mnemonic.substr(0, mnemonic.find('.')); }  // "sub.w" -> "sub"
  std::string first_operand() const { return operands.substr(0, operands.find(',')); }
};

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

bool parse_instruction(const std::string& line, Instruction* out) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
  if (fields.size() < 3) return false;
  out->mnemonic = trim(fields[2]);
  const std::string operands = fields.size() > 3 ? fields[3] : "";
  out->operands = trim(operands.substr(0, operands.find_first_of("@;")));
  return !out->mnemonic.empty() && out->mnemonic[0] != '.';  // ".word": a literal pool
}

// Bytes of a register list "{r4, r5, r8-r11, lr}": 4 a core or single register, 8 a double one.
int64_t register_list_bytes(const std::string& operands) {
  const size_t open = operands.find('{'), close = operands.find('}');
  if (open == std::string::npos || close == std::string::npos) return kUnbounded;
  std::istringstream in(operands.substr(open + 1, close - open - 1));
  int64_t bytes = 0;
  for (std::string item; std::getline(in, item, ',');) {
    item = trim(item);
    const int64_t size = item[0] == 'd' ? 8 : 4;
    const size_t dash = item.find('-');
    int64_t count = 1;
    if (dash != std::string::npos) {
      const auto number = [](const std::string& reg) { return std::stoll(reg.substr(reg.find_first_of("0123456789"))); };
      count = number(item.substr(dash + 1)) - number(item.substr(0, dash)) + 1;
    }
    bytes += size * count;
  }
  return bytes;
}

// What one instruction does to the stack and to control flow.
struct Effect {
  int64_t decrement = 0;  // bytes the stack grows by; kUnbounded when not a constant
  std::string target;     // a direct branch or call: "memset" or "memset+0x1c"
  bool ends = false;      // control never falls through to the next instruction
};

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// A constant write-back of sp: "[sp, #-8]!" grows by 8, "[sp], #4" shrinks by 4; others are not constant.
int64_t writeback_decrement(const std::string& operands) {
  static const std::regex constant(R"(\[sp(?:, #(-?\d+)\]!|\], #(-?\d+)))");
  std::smatch m;
  if (!std::regex_search(operands, m, constant)) return kUnbounded;
  const int64_t offset = std::stoll(m[1].matched ? m[1].str() : m[2].str());
  return offset < 0 ? -offset : 0;
}

// "sub sp, #12", "sub.w sp, sp, #512", "add sp, #16": the stack grows by the subtracted constant.
int64_t sp_arithmetic_decrement(const Instruction& in) {
  static const std::regex constant(R"(^sp, (?:sp, )?#(-?\d+)$)");
  std::smatch m;
  const std::string base = in.base();
  const bool sub = base == "sub" || base == "subw" || base == "subs", add = base == "add" || base == "addw" || base == "adds";
  if (!(sub || add) || !std::regex_match(in.operands, m, constant)) return kUnbounded;
  const int64_t amount = sub ? std::stoll(m[1]) : -std::stoll(m[1]);
  return std::max<int64_t>(amount, 0);
}

int64_t stack_decrement(const Instruction& in) {
  const std::string base = in.base();
  const bool sp_writeback = in.operands.rfind("sp!", 0) == 0;
  if (base == "push" || base == "vpush" || (sp_writeback && (base == "stmdb" || base == "stmfd" || base == "vstmdb"))) {
    return register_list_bytes(in.operands);
  }
  if (base == "pop" || base == "vpop" ||
      (sp_writeback && (base == "ldm" || base == "ldmia" || base == "ldmfd" || base == "vldmia"))) {
    return 0;
  }
  if (sp_writeback) return kUnbounded;
  if (has(in.operands, "[sp], ") || (has(in.operands, "[sp,") && has(in.operands, "]!"))) {
    return writeback_decrement(in.operands);
  }
  std::string dest = in.first_operand();
  std::transform(dest.begin(), dest.end(), dest.begin(), [](unsigned char c) { return std::tolower(c); });
  if (dest == "sp") return sp_arithmetic_decrement(in);
  if (dest == "msp" || dest == "psp") return kUnbounded;  // msr: the stack moves elsewhere
  return 0;
}

bool starts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// An unconditional return: "bx lr", "pop {r4, pc}", "ldmia.w sp!, {r4, pc}", "ldr.w pc, [sp], #4".
bool is_return(const Instruction& in) {
  const std::string base = in.base();
  if (base == "bx") return in.operands == "lr";
  if (base == "pop" || base == "ldm" || base == "ldmia" || base == "ldmfd") return has(in.operands, "pc}");
  return base == "ldr" && in.first_operand() == "pc" && has(in.operands, "[sp], ");
}

// A jump or call through a register (a conditional "bxne lr" returns, it does not jump).
bool is_indirect(const Instruction& in) {
  const std::string base = in.base();
  if (starts(base, "bx")) return in.operands != "lr";
  return starts(base, "blx") || (in.first_operand() == "pc" && !starts(base, "pop") && !starts(base, "ldm"));
}

Effect effect_of(const Instruction& in) {
  static const std::regex direct(R"(<([^>]+)>$)");
  Effect e;
  e.decrement = stack_decrement(in);
  std::smatch m;
  const std::string base = in.base();
  const bool branch = base[0] == 'b' || starts(base, "cb");  // b<cond>, bl, blx, cbz, cbnz
  if (branch && std::regex_search(in.operands, m, direct)) {
    e.target = m[1];
    e.ends = base == "b";
  } else if (is_return(in)) {
    e.ends = true;
  } else if (is_indirect(in)) {
    e.decrement = kUnbounded;
  }
  return e;
}

// The function a direct branch leaves `fn` for ("" when it stays inside); false when it cannot be bounded:
// a branch into the middle of another function, or back to the entry of this one (which pushes again).
bool branch_callee(const std::string& fn, const std::string& target, std::string* callee) {
  const size_t plus = target.find('+');
  const std::string name = target.substr(0, plus);
  callee->clear();
  if (name == fn) return plus != std::string::npos;
  *callee = name;
  return plus == std::string::npos;
}
}  // namespace

int64_t disassembled_stack_depth(const Disassembly& code, const std::string& name) {
  std::map<std::string, int64_t> memo;  // -2 = on the current path
  std::function<int64_t(const std::string&)> depth = [&](const std::string& fn) -> int64_t {
    const auto seen = memo.find(fn);
    if (seen != memo.end()) return seen->second == -2 ? kUnbounded : seen->second;  // recursion
    const auto found = code.find(fn);
    if (found == code.end()) return memo[fn] = kUnbounded;
    memo[fn] = -2;
    int64_t frame = 0, deepest_callee = 0;
    bool falls_through = true;
    const auto add_callee = [&](const std::string& callee) {
      const int64_t d = callee.empty() ? 0 : depth(callee);
      deepest_callee = d < 0 || deepest_callee < 0 ? kUnbounded : std::max(deepest_callee, d);
    };
    for (const std::string& line : found->second.lines) {
      Instruction in;
      if (!parse_instruction(line, &in)) continue;
      const Effect e = effect_of(in);
      std::string callee;
      if (e.decrement < 0 || (!e.target.empty() && !branch_callee(fn, e.target, &callee))) return memo[fn] = kUnbounded;
      frame += e.decrement;
      add_callee(callee);
      falls_through = !e.ends;
    }
    if (falls_through) add_callee(found->second.next.empty() ? "<end of section>" : found->second.next);
    return memo[fn] = deepest_callee < 0 ? kUnbounded : frame + deepest_callee;
  };
  return depth(name);
}

Disassembly disassemble(const std::string& objdump_tool, const std::string& elf) {
  TempDir tmp;
  const std::string out = tmp.path() + "/disassembly.txt";
  if (run_process({objdump_tool, "-d", elf}, "", out) != 0) throw CompileError("'" + objdump_tool + " -d " + elf + "' failed");
  std::ifstream in(out);
  return parse_disassembly({std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
}

}  // namespace microaot
