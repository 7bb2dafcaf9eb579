// Cortex-M targets on QEMU: the board of each -mcpu, building a bare-metal image of a compiled model with
// the Arm cross compiler (the harness in targets/cortex-m/, embedded in the binary), and running it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compile/compile_model.h"

namespace microaot {

struct CortexMBoard {
  std::string cpu;                      // "cortex-m4"
  std::string machine;                  // QEMU -M: "mps2-an386"
  std::string linker_script;            // in targets/cortex-m/
  std::vector<std::string> cpu_flags;   // -mcpu, -mthumb, float ABI and FPU
  std::vector<std::string> clock_flags; // which timer the harness counts instructions with
};

// The QEMU board for -mcpu=`cpu`; throws CompileError naming the supported ones.
const CortexMBoard& cortex_m_board(const std::string& cpu);

struct BuildTools {
  std::string cc;      // default arm-none-eabi-gcc
  std::string cflags;  // extra flags for every C file
  std::vector<std::string> kernel_sources;  // PATH=FILE replacements (driver/kernel_sources.h)
  std::map<std::string, std::string> custom_sources;  // the user's --custom-op code: path in the folder -> text
};

// A linked image and where its parts are, all under one build folder.
struct CortexMImage {
  std::string dir;
  std::string elf;
  std::vector<std::string> model_objects;  // every object of the generated library (kernels included)
  std::string weights_object;              // the one holding the constants (also in model_objects)
  std::vector<std::string> harness_objects;
};

// Writes the library and the harness into `dir`, compiles each C file at -O2 -Wall -Wextra -Werror
// (with -fstack-usage call graphs) and links. Throws CompileError when the cross compiler fails.
CortexMImage build_cortex_m_image(const CompiledModel& model, const CortexMBoard& board, const BuildTools& tools,
                                  const std::string& dir);

// The same image with the per-operator hooks (-DMICROAOT_PROFILE) in DIR/profile/: the library files that
// test the macro (the executor core, NAME.c) and the harness are compiled again, the kernels are reused
// as they are, so each step runs the plain image's code. Its run also reports each step's instructions.
CortexMImage build_profiled_image(const CompiledModel& model, const CortexMBoard& board, const BuildTools& tools,
                                  const CortexMImage& plain);

// What the harness measured (targets/cortex-m/harness.c); instruction counts are net of an empty call.
struct BoardRun {
  int64_t init_instructions = 0;
  int64_t init_stack_bytes = 0;
  int64_t op_hook_instructions = -1;  // profiled image: the empty op_begin/op_end pair removed from each step
  struct Op {
    int step = 0;
    int64_t instructions = 0;  // net of the empty hook pair
  };
  struct Set {
    int64_t instructions = 0;
    int64_t stack_bytes = 0;
    std::vector<Op> ops;  // profiled image only: one per step run, in order
  };
  std::vector<Set> sets;
  std::vector<uint8_t> outputs;  // every set's outputs back to back
};

// Reads results.txt's "key value" lines. Throws CompileError when the harness did not finish, a value is
// not a number, a step's lines are incomplete, or the clock check failed.
BoardRun parse_board_results(const std::string& text);

// Runs the image under QEMU with -icount on `inputs` (input sets back to back). Throws CompileError when
// QEMU is missing, times out, or the harness fails, or when instruction counting does not check out.
// With `exec_log`, QEMU also logs there each block it translates and each execution of one
// (driver/cycle_estimate.h reads it).
BoardRun run_cortex_m_image(const CortexMBoard& board, const CortexMImage& image, const std::vector<uint8_t>& inputs,
                            const std::string& exec_log = "");

// Another tool of the same cross toolchain: ("arm-none-eabi-gcc", "size") -> "arm-none-eabi-size".
std::string cross_tool(const std::string& cc, const std::string& tool);

}  // namespace microaot
