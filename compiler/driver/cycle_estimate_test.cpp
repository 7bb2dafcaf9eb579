#include "driver/cycle_estimate.h"

#include <gtest/gtest.h>

#include <sstream>

#include "support/diagnostics.h"

namespace microaot {
namespace {

std::vector<LoggedInstruction> block(const std::vector<std::string>& lines) {
  std::vector<LoggedInstruction> out;
  for (const std::string& line : lines) out.push_back(parse_logged_instruction(line));
  return out;
}

TEST(CycleEstimate, ParsesQemuInstructionLines) {
  const LoggedInstruction wide = parse_logged_instruction("0x00001c64:  f441 0170  orr      r1, r1, #0xf00000");
  EXPECT_EQ(wide.address, 0x1c64u);
  EXPECT_EQ(wide.size, 4u);
  EXPECT_EQ(wide.mnemonic, "orr");
  EXPECT_EQ(wide.operands, "r1, r1, #0xf00000");
  const LoggedInstruction narrow = parse_logged_instruction("0x00001f04:  b508       push     {r3, lr}");
  EXPECT_EQ(narrow.size, 2u);
  EXPECT_EQ(narrow.mnemonic, "push");
  EXPECT_THROW(parse_logged_instruction("Trace 0: 0x7f"), CompileError);
}

TEST(CycleEstimate, PricesTheM4TableRows) {
  // A load after a load pipelines (1), unless it addresses through the value just loaded (2); a MAC is 1;
  // a push of two registers 1 + 2; a conditional branch may refill the pipeline.
  const PricedBlock b = price_block(block({"0x100:  6801       ldr      r1, [r0]",
                                           "0x102:  6842       ldr      r2, [r0, #4]",
                                           "0x104:  6813       ldr      r3, [r2]",
                                           "0x106:  fb21 4403  smlad    r4, r1, r3, r4",
                                           "0x10a:  b508       push     {r3, lr}",
                                           "0x10c:  f47f aff8  bne.w    #0x100"}),
                                     CycleCore::m4);
  EXPECT_EQ(b.cycles, (std::vector<double>{2, 1, 2, 1, 3, 1}));
  EXPECT_TRUE(b.may_branch);
  EXPECT_EQ(b.refill, 2);
  const PricedBlock m7 = price_block(block({"0x10a:  b508       push     {r3, lr}", "0x10c:  eee0 7a20  vdiv.f32 s15, s0, s1"}),
                                     CycleCore::m7);
  EXPECT_EQ(m7.cycles, (std::vector<double>{2, 14}));
  EXPECT_FALSE(m7.may_branch);
}

TEST(CycleEstimate, StripsConditionsAndFlagsButKeepsListedForms) {
  const PricedBlock b = price_block(block({"0x0:  bf18       it       ne", "0x2:  2301       movne    r3, #1",
                                           "0x4:  0049       lsls     r1, r1, #1", "0x6:  fb00 2011  mls      r0, r0, r1, r2",
                                           "0xa:  fb90 f0f1  sdiv     r0, r0, r1"}),
                                    CycleCore::m4);
  EXPECT_EQ(b.cycles, (std::vector<double>{1, 1, 1, 1, 12}));
  EXPECT_THROW(price_block(block({"0x0:  bf30       wfi"}), CycleCore::m4), CompileError);
}

// A loop of three instructions run three times between the markers: the branch is taken twice (1 + 2 each)
// and falls through once (1); one execution QEMU abandoned does not count, a block cut short by an I/O
// access counts up to it.
TEST(CycleEstimate, WalksTheLogWindow) {
  const std::string log =
      "IN: begin\n0x00000200:  4770       bx       lr\n\n"
      "Trace 0: 0x10 [00800408/00000200/00000110/ff020200] begin\n"
      "IN: loop\n0x00000100:  6801       ldr      r1, [r0]\n0x00000102:  3b01       subs     r3, #1\n"
      "0x00000104:  d1fc       bne      #0x100\n\n"
      "Trace 0: 0x20 [00800408/00000100/00000110/ff020200] loop\n"
      "Trace 0: 0x20 [00800408/00000100/00000110/ff020200] loop\n"
      "Stopped execution of TB chain before 0x20 [00000100] loop\n"
      "Trace 0: 0x20 [00800408/00000100/00000110/ff020200] loop\n"
      "Trace 0: 0x20 [00800408/00000100/00000110/ff020200] loop\n"
      "IN: tail\n0x00000106:  6801       ldr      r1, [r0]\n0x00000108:  6801       ldr      r1, [r0]\n\n"
      "Trace 0: 0x30 [00800408/00000106/00000110/ff020200] tail\n"
      "cpu_io_recompile: rewound execution of TB to 00000108\n"
      "IN: end\n0x00000300:  4770       bx       lr\n\n"
      "Trace 0: 0x40 [00800408/00000300/00000110/ff020200] end\n"
      "Trace 0: 0x10 [00800408/00000200/00000110/ff020200] begin\n";
  std::istringstream in(log);
  const auto windows = measure_log_windows(in, CycleCore::m4, {"begin"}, "end");
  ASSERT_EQ(windows.count("begin"), 1u);
  const CycleWindow& w = windows.at("begin");
  EXPECT_TRUE(w.complete);
  EXPECT_EQ(w.instructions, 1 + 3 * 3 + 1);
  // bx lr: 1 + 2 (taken); the loop: 3 * (2 + 1 + 1) + 2 taken refills; the tail's first load.
  EXPECT_EQ(w.cycles, 3 + 3 * 4 + 2 * 2 + 2);
}

// Each window runs from the first block after the begin hook (and what it calls) to the end hook.
TEST(CycleEstimate, WalksTheOperatorHookWindows) {
  const std::string begin =
      "Trace 0: 0x10 [00800408/00000400/00000110/ff020200] op_begin\n"
      "Trace 0: 0x20 [00800408/00000410/00000110/ff020200] span_begin\n";
  const std::string end = "Trace 0: 0x40 [00800408/00000600/00000110/ff020200] op_end\n";
  const std::string step = "Trace 0: 0x30 [00800408/00000500/00000110/ff020200] step\n";
  const std::string log =
      "IN: op_begin\n0x00000400:  4770       bx       lr\n\n" + begin.substr(0, begin.find('\n') + 1) +
      "IN: span_begin\n0x00000410:  4770       bx       lr\n\n" + begin.substr(begin.find('\n') + 1) +
      "IN: step\n0x00000500:  2000       movs     r0, #0\n0x00000502:  f000 f87d  bl       #0x600\n\n" + step +
      "IN: op_end\n0x00000600:  4770       bx       lr\n\n" + end + begin + step + end + begin + step + step + end;
  std::istringstream in(log);
  const std::vector<CycleWindow> windows = measure_step_windows(in, CycleCore::m4, {"op_begin", "span_begin"}, "op_end");
  ASSERT_EQ(windows.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(windows[i].complete);
  EXPECT_EQ(windows[0].instructions, 2);
  EXPECT_EQ(windows[0].cycles, 1 + 1 + 2);  // movs, bl taken
  EXPECT_EQ(windows[2].instructions, 4);
  EXPECT_EQ(windows[2].cycles, 8);
}

TEST(CycleEstimate, RefusesABlockThatWasNeverTranslated) {
  std::istringstream in("Trace 0: 0x20 [00800408/00000100/00000110/ff020200] loop\n");
  EXPECT_THROW(measure_log_windows(in, CycleCore::m4, {"loop"}, "end"), CompileError);
}

}  // namespace
}  // namespace microaot
