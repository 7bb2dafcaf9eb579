#include "driver/cycle_estimate.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "support/diagnostics.h"

namespace microaot {

namespace {
enum class CycleClass {
#define MICROAOT_CYCLE_CLASS(id, ...) id,
#define MICROAOT_CYCLE_MNEMONIC(m, cls)
#include "driver/cycle_table.def"
#undef MICROAOT_CYCLE_CLASS
#undef MICROAOT_CYCLE_MNEMONIC
};

struct ClassTiming {
  double m4, m4_paired, m4_word, m4_refill, m7, m7_word, m7_refill;
};

const ClassTiming& timing(CycleClass c) {
  static const ClassTiming kTimings[] = {
#define MICROAOT_CYCLE_CLASS(id, m4, m4_paired, m4_word, m4_refill, m7, m7_word, m7_refill) \
  {m4, m4_paired, m4_word, m4_refill, m7, m7_word, m7_refill},
#define MICROAOT_CYCLE_MNEMONIC(m, cls)
#include "driver/cycle_table.def"
#undef MICROAOT_CYCLE_CLASS
#undef MICROAOT_CYCLE_MNEMONIC
  };
  return kTimings[static_cast<int>(c)];
}

const std::unordered_map<std::string, CycleClass>& mnemonics() {
  static const std::unordered_map<std::string, CycleClass> kMnemonics = {
#define MICROAOT_CYCLE_CLASS(id, ...)
#define MICROAOT_CYCLE_MNEMONIC(m, cls) {m, CycleClass::cls},
#include "driver/cycle_table.def"
#undef MICROAOT_CYCLE_CLASS
#undef MICROAOT_CYCLE_MNEMONIC
  };
  return kMnemonics;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const char* const kConditions[] = {"eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs",
                                   "vc", "hi", "ls", "ge", "lt", "gt", "le", "al"};

std::string without_condition(const std::string& m) {
  for (const char* c : kConditions) {
    if (m.size() > 2 && ends_with(m, c)) return m.substr(0, m.size() - 2);
  }
  return m;
}

bool is_it(const std::string& m) {
  return m.size() >= 2 && m.size() <= 5 && m.compare(0, 2, "it") == 0 &&
         m.find_first_not_of("te", 2) == std::string::npos;
}

// The table's row for a mnemonic: as it is, then without a condition code, then without the flag-setting s.
bool find_class(std::string m, CycleClass* out) {
  if (ends_with(m, ".w") || ends_with(m, ".n")) m.resize(m.size() - 2);
  if (m[0] == 'v' && m.find('.') != std::string::npos) m.resize(m.find('.'));
  if (is_it(m)) {
    *out = CycleClass::it;
    return true;
  }
  const std::string bare = without_condition(m);
  std::vector<std::string> candidates = {m};
  if (bare != m) candidates.push_back(bare);
  for (const std::string& form : {m, bare}) {
    if (form.size() > 1 && form.back() == 's') candidates.push_back(form.substr(0, form.size() - 1));
  }
  for (const std::string& candidate : candidates) {
    const auto it = mnemonics().find(candidate);
    if (it != mnemonics().end()) {
      *out = it->second;
      return true;
    }
  }
  return false;
}

std::vector<std::string> operand_list(const std::string& operands) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : operands) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(current);
      current.clear();
    } else if (c != ' ' || !current.empty()) {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

// 32-bit words of a register list "{r4, r5, lr}" or "{d8, d9}" / "{s16-s31}" (a d register is two).
int list_words(const std::string& operands) {
  const size_t open = operands.find('{'), close = operands.find('}');
  if (open == std::string::npos || close == std::string::npos) return 0;
  int words = 0;
  std::istringstream in(operands.substr(open + 1, close - open - 1));
  for (std::string reg; std::getline(in, reg, ',');) {
    reg.erase(std::remove(reg.begin(), reg.end(), ' '), reg.end());
    const int width = !reg.empty() && reg[0] == 'd' ? 2 : 1;
    const size_t dash = reg.find('-');
    int count = 1;
    if (dash != std::string::npos) count = std::stoi(reg.substr(dash + 2)) - std::stoi(reg.substr(1, dash - 1)) + 1;
    words += width * count;
  }
  return words;
}

bool names_register(const std::string& text, const std::string& reg) {
  for (size_t at = text.find(reg); at != std::string::npos; at = text.find(reg, at + 1)) {
    const bool starts = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
    const size_t end = at + reg.size();
    if (starts && (end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end])))) return true;
  }
  return false;
}

bool writes_pc(CycleClass c, const std::vector<std::string>& ops, const std::string& operands) {
  if (c == CycleClass::branch || c == CycleClass::table_branch) return true;
  if (c == CycleClass::load_multiple) return operands.find('{') != std::string::npos &&
                                             names_register(operands.substr(operands.find('{')), "pc");
  return (c == CycleClass::alu || c == CycleClass::load) && !ops.empty() && ops[0] == "pc";
}
}  // namespace

CycleCore cycle_core(const std::string& cpu) {
  if (cpu == "cortex-m4") return CycleCore::m4;
  if (cpu == "cortex-m7") return CycleCore::m7;
  throw UsageError("estimated cycles have timing tables for cortex-m4 and cortex-m7 only, not " + cpu);
}

const char* cycle_core_name(CycleCore core) { return core == CycleCore::m4 ? "cortex-m4" : "cortex-m7"; }

LoggedInstruction parse_logged_instruction(const std::string& line) {
  LoggedInstruction ins;
  std::istringstream in(line);
  std::string address, token;
  in >> address;
  if (address.size() < 4 || address.compare(0, 2, "0x") != 0 || address.back() != ':') {
    throw CompileError("QEMU's instruction log has an unexpected line '" + line + "'");
  }
  ins.address = static_cast<uint32_t>(std::stoul(address.substr(2), nullptr, 16));
  while (in >> token) {
    const bool halfword = token.size() == 4 && token.find_first_not_of("0123456789abcdef") == std::string::npos;
    if (!halfword || ins.size == 4) break;
    ins.size += 2;
    token.clear();
  }
  ins.mnemonic = token;
  std::getline(in, ins.operands);
  ins.operands.erase(0, ins.operands.find_first_not_of(' '));
  if (ins.size == 0 || ins.mnemonic.empty()) throw CompileError("QEMU's instruction log has an unexpected line '" + line + "'");
  return ins;
}

PricedBlock price_block(const std::vector<LoggedInstruction>& block, CycleCore core) {
  PricedBlock priced;
  priced.instructions = block;
  std::string loaded_register;  // the previous instruction's destination, when it was a single load
  for (size_t i = 0; i < block.size(); ++i) {
    const LoggedInstruction& ins = block[i];
    CycleClass c;
    if (!find_class(ins.mnemonic, &c)) {
      std::ostringstream at;
      at << std::hex << ins.address;
      throw CompileError("no cycle timing for the instruction '" + ins.mnemonic + " " + ins.operands + "' at 0x" +
                         at.str() + ": add its mnemonic to compiler/driver/cycle_table.def");
    }
    const std::vector<std::string> ops = operand_list(ins.operands);
    if (c == CycleClass::fp && ins.mnemonic.compare(0, 4, "vmov") == 0 && ops.size() >= 3) c = CycleClass::fp_move_pair;
    const ClassTiming& t = timing(c);
    const bool single = c == CycleClass::load;
    const std::string address = ins.operands.find('[') != std::string::npos ? ins.operands.substr(ins.operands.find('[')) : "";
    // A single load or store directly after a single load pipelines, unless it addresses through the loaded value.
    const bool paired = single && !loaded_register.empty() && !names_register(address, loaded_register);
    const int words = list_words(ins.operands);
    priced.cycles.push_back(core == CycleCore::m4 ? (paired ? t.m4_paired : t.m4) + t.m4_word * words
                                                  : t.m7 + t.m7_word * words);
    loaded_register = single && ins.mnemonic.compare(0, 3, "ldr") == 0 && !ops.empty() ? ops[0] : "";
    if (i + 1 == block.size()) {
      priced.may_branch = writes_pc(c, ops, ins.operands);
      priced.refill = core == CycleCore::m4 ? t.m4_refill : t.m7_refill;
    }
  }
  return priced;
}

namespace {
// Which window a block execution counts in, from its symbol (-1: none); it opens and closes them.
using WindowPolicy = std::function<int(const std::string& symbol, std::vector<CycleWindow>& windows)>;

// The log's blocks by QEMU's host address of their code, the translation logged just before a block's
// first execution naming it; and the execution in progress, counted once the next one shows where it went.
class LogWalker {
 public:
  LogWalker(CycleCore core, WindowPolicy policy) : core_(core), policy_(std::move(policy)) {}

  void line(const std::string& text) {
    if (text.compare(0, 4, "IN: ") == 0) {
      translating_ = true;
      pending_block_.clear();
    } else if (translating_ && text.compare(0, 2, "0x") == 0) {
      pending_block_.push_back(parse_logged_instruction(text));
    } else if (text.compare(0, 6, "Trace ") == 0) {
      trace(text);
    } else if (text.compare(0, 30, "Stopped execution of TB chain ") == 0) {
      running_.reset();
    } else if (text.compare(0, 45, "cpu_io_recompile: rewound execution of TB to ") == 0) {
      if (running_) running_->stop_at = static_cast<uint32_t>(std::stoul(text.substr(45), nullptr, 16));
    } else if (text.empty()) {
      translating_ = false;
    }
  }
  std::vector<CycleWindow> finish() {
    close_running(~0u);
    return windows_;
  }

 private:
  // A block's instructions, priced when an execution first counts in a window (the harness's start-up
  // code outside them may use instructions the table has no row for).
  struct Block {
    std::vector<LoggedInstruction> instructions;
    std::optional<PricedBlock> priced;
  };
  struct Running {
    Block* block;
    int window;  // -1: outside every window
    uint32_t stop_at = ~0u;
  };

  void trace(const std::string& text) {
    const size_t open = text.find('['), close = text.find(']');
    if (open == std::string::npos || close == std::string::npos) throw CompileError("QEMU's log has an unexpected line '" + text + "'");
    const std::string host = text.substr(6, open - 6);
    const std::string fields = text.substr(open + 1, close - open - 1);
    const size_t slash = fields.find('/');
    const uint32_t pc = static_cast<uint32_t>(std::stoul(fields.substr(slash + 1), nullptr, 16));
    const std::string symbol = close + 2 <= text.size() ? text.substr(close + 2) : "";
    close_running(pc);
    if (!pending_block_.empty()) {
      if (pending_block_[0].address != pc) throw CompileError("QEMU's log: a block translated at another address than it ran");
      blocks_[host] = Block{pending_block_, std::nullopt};
      pending_block_.clear();
    }
    const auto block = blocks_.find(host);
    if (block == blocks_.end()) throw CompileError("QEMU's log: a block ran that was never translated");
    running_ = Running{&block->second, policy_(symbol, windows_)};
  }

  void close_running(uint32_t next_pc) {
    if (!running_) return;
    const Running run = *running_;
    running_.reset();
    if (run.window < 0) return;
    CycleWindow& w = windows_[static_cast<size_t>(run.window)];
    if (!run.block->priced) run.block->priced = price_block(run.block->instructions, core_);
    const PricedBlock& b = *run.block->priced;
    size_t n = 0;
    while (n < b.instructions.size() && b.instructions[n].address < run.stop_at) w.cycles += b.cycles[n++];
    w.instructions += static_cast<int64_t>(n);
    if (n == b.instructions.size() && b.may_branch) {
      const LoggedInstruction& last = b.instructions.back();
      if (next_pc != last.address + last.size) w.cycles += b.refill;
    }
  }

  CycleCore core_;
  WindowPolicy policy_;
  bool translating_ = false;
  std::vector<LoggedInstruction> pending_block_;
  std::map<std::string, Block> blocks_;
  std::optional<Running> running_;
  std::vector<CycleWindow> windows_;
};

std::vector<CycleWindow> walk(std::istream& log, CycleCore core, WindowPolicy policy) {
  LogWalker walker(core, std::move(policy));
  for (std::string line; std::getline(log, line);) walker.line(line);
  return walker.finish();
}
}  // namespace

std::map<std::string, CycleWindow> measure_log_windows(std::istream& log, CycleCore core,
                                                       const std::vector<std::string>& begin_symbols,
                                                       const std::string& end_symbol) {
  std::map<std::string, int> opened;
  int current = -1;
  const auto policy = [&](const std::string& symbol, std::vector<CycleWindow>& windows) {
    if (current >= 0 && symbol == end_symbol) {
      windows[static_cast<size_t>(current)].complete = true;
      current = -1;
    }
    const bool begins = std::find(begin_symbols.begin(), begin_symbols.end(), symbol) != begin_symbols.end();
    if (current < 0 && begins && opened.count(symbol) == 0) {
      current = static_cast<int>(windows.size());
      opened[symbol] = current;
      windows.emplace_back();
    }
    return current;
  };
  const std::vector<CycleWindow> windows = walk(log, core, policy);
  std::map<std::string, CycleWindow> named;
  for (const auto& [symbol, index] : opened) named[symbol] = windows[static_cast<size_t>(index)];
  return named;
}

std::vector<CycleWindow> measure_step_windows(std::istream& log, CycleCore core,
                                              const std::vector<std::string>& begin_hooks,
                                              const std::string& end_hook) {
  bool in_begin = false;
  int current = -1;
  const auto policy = [&](const std::string& symbol, std::vector<CycleWindow>& windows) {
    if (symbol == end_hook) {
      if (current >= 0) windows[static_cast<size_t>(current)].complete = true;
      current = -1;
    } else if (std::find(begin_hooks.begin(), begin_hooks.end(), symbol) != begin_hooks.end()) {
      in_begin = true;
    } else if (in_begin) {
      in_begin = false;
      current = static_cast<int>(windows.size());
      windows.emplace_back();
    }
    return in_begin ? -1 : current;
  };
  return walk(log, core, policy);
}

}  // namespace microaot
