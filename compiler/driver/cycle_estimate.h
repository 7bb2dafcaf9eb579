// Estimated cycles of a run on QEMU: the executed instructions, read from QEMU's log of each translated
// block's instructions (-d in_asm) and of each block's executions (-d exec, with nochain so that every one is
// logged), priced with the per-instruction timing table cycle_table.def. The estimate assumes zero-wait-state
// memory; docs/cycles.md says what else it leaves out.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

namespace microaot {

enum class CycleCore { m4, m7 };

// The core whose column of the table prices a board's run; throws UsageError for a cpu without one.
CycleCore cycle_core(const std::string& cpu);
const char* cycle_core_name(CycleCore core);

// One instruction as the log shows it ("0x00001c64:  f441 0170  orr      r1, r1, #0xf00000").
struct LoggedInstruction {
  uint32_t address = 0;
  uint32_t size = 0;  // bytes
  std::string mnemonic, operands;
};
LoggedInstruction parse_logged_instruction(const std::string& line);

// The cycles of each instruction of a block executed in order, on `core`: entry i is what instruction i
// costs after instructions 0..i-1 (the M4 pipelines neighbouring loads and stores), and `refill` what the
// last one adds when it changes the pc. Throws CompileError naming an instruction the table has no row for.
struct PricedBlock {
  std::vector<LoggedInstruction> instructions;
  std::vector<double> cycles;
  double refill = 0;       // the last instruction, when the next block is not the one after it
  bool may_branch = false; // the last instruction can change the pc
};
PricedBlock price_block(const std::vector<LoggedInstruction>& block, CycleCore core);

// The instructions and cycles of the block executions between two markers of the log.
struct CycleWindow {
  int64_t instructions = 0;
  double cycles = 0;
  bool complete = false;
};

// Reads the log and returns, for each begin symbol, its first window: from its first block until the next
// block in `end_symbol` (excluded). Blocks whose execution QEMU abandons ("Stopped execution of TB chain") do not count; a
// block cut short by an I/O access ("cpu_io_recompile: rewound execution of TB to ADDR") counts up to ADDR.
std::map<std::string, CycleWindow> measure_log_windows(std::istream& log, CycleCore core,
                                                       const std::vector<std::string>& begin_symbols,
                                                       const std::string& end_symbol);

// The windows of the per-operator hooks, in order: each from the first block after a run of blocks in
// `begin_hooks` (the begin hook and what it calls) until the next block in `end_hook`.
std::vector<CycleWindow> measure_step_windows(std::istream& log, CycleCore core,
                                              const std::vector<std::string>& begin_hooks,
                                              const std::string& end_hook);

}  // namespace microaot
