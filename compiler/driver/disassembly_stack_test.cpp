// The stack depth of functions read from `objdump -d` text (samples in arm-none-eabi-objdump's format).
#include "driver/disassembly_stack.h"

#include <gtest/gtest.h>

namespace microaot {
namespace {

std::string function(const std::string& address, const std::string& name, const std::vector<std::string>& body) {
  std::string text = "\n" + address + " <" + name + ">:\n";
  for (const std::string& instruction : body) text += "    81ec:\tb530      \t" + instruction + "\n";
  return text;
}

// newlib's memset for Thumb-2 (abridged): one push, a conditional loop, a pop to pc.
const std::string kMemset = function("00008320", "memset", {"lsls\tr3, r0, #30", "push\t{r4, r5, lr}",
                                                            "beq.n\t83b6 <memset+0x96>", "str\tr5, [r2, #0]",
                                                            "ldr\tr0, [sp]", "pop\t{r4, r5, pc}"});
// newlib's memcpy: a leaf that touches no stack.
const std::string kMemcpy = function("000081ec", "memcpy", {"mov\tip, r0", "bne.n\t82d4 <memcpy+0xe8>",
                                                            "ldr.w\tr3, [r1], #4", "bx\tlr"});

int64_t depth(const std::string& text, const std::string& name) {
  return disassembled_stack_depth(parse_disassembly("\nt.elf:     file format elf32-littlearm\n\n"
                                                    "Disassembly of section .text:\n" + text),
                                  name);
}

TEST(DisassemblyStack, LeafFunctionsCountTheirPushes) {
  EXPECT_EQ(depth(kMemset + kMemcpy, "memset"), 12);
  EXPECT_EQ(depth(kMemset + kMemcpy, "memcpy"), 0);
}

TEST(DisassemblyStack, EveryFormOfDecrementAddsUp) {
  const std::string f = function("00008400", "f", {"stmdb\tsp!, {r4, r5, r6, r7, r8, r9, sl, fp, lr}", "sub\tsp, #12",
                                                   "sub.w\tsp, sp, #512\t@ 0x200", "subw\tsp, sp, #1032",
                                                   "vpush\t{d8-d11}", "vstmdb\tsp!, {s16-s17}",
                                                   "strd\tr4, r5, [sp, #-8]!", "str.w\tr6, [sp, #-4]!",
                                                   "add\tsp, #16", "ldr.w\tr6, [sp], #4", "vpop\t{d8-d11}",
                                                   "ldmia.w\tsp!, {r4, r5, r6, r7, r8, r9, sl, fp, pc}"});
  EXPECT_EQ(depth(f, "f"), 36 + 12 + 512 + 1032 + 32 + 8 + 8 + 4);
}

TEST(DisassemblyStack, CallsAndTailCallsAddTheDeepestCallee) {
  const std::string f = function("00008400", "f", {"push\t{r3, lr}", "bl\t81ec <memcpy>", "bl\t8320 <memset>",
                                                   "ldr\tr3, [pc, #8]\t@ (8500 <g+0x10>)", "pop\t{r3, lr}",
                                                   "b.w\t8320 <memset>"});
  EXPECT_EQ(depth(kMemcpy + kMemset + f, "f"), 8 + 12);
  const std::string tail = function("00008400", "t", {"cbz\tr0, 81ec <memcpy>", "bxne\tlr", "b.w\t8320 <memset>"});
  EXPECT_EQ(depth(kMemcpy + kMemset + tail, "t"), 12);
}

// Code that runs on past its last instruction continues in the function that follows in the image.
TEST(DisassemblyStack, FallingThroughReachesTheNextFunction) {
  const std::string entry = function("00008400", "entry", {"push\t{r4, lr}", "movs\tr0, #0"});
  const std::string body = function("00008408", "body", {"push\t{r4, r5, r6, lr}", "pop\t{r4, r5, r6, pc}"});
  EXPECT_EQ(depth(entry + body, "entry"), 8 + 16);
  EXPECT_EQ(depth(body + entry, "entry"), -1) << "the last function of the section runs into nothing known";
}

TEST(DisassemblyStack, WhatCannotBeBoundedIsUnbounded) {
  const auto alone = [](const std::string& instruction) {
    return depth(function("00008400", "f", {"push\t{r4, lr}", instruction, "pop\t{r4, pc}"}) + kMemset, "f");
  };
  EXPECT_EQ(alone("movs\tr0, #1"), 8) << "the control case";
  EXPECT_EQ(alone("sub\tsp, r3"), -1) << "a dynamic adjustment";
  EXPECT_EQ(alone("mov\tsp, r7"), -1);
  EXPECT_EQ(alone("str\tr0, [sp, r3]!"), -1);
  EXPECT_EQ(alone("stmia\tsp!, {r0, r1}"), -1);
  EXPECT_EQ(alone("msr\tMSP, r0"), -1);
  EXPECT_EQ(alone("blx\tr3"), -1) << "a call through a register";
  EXPECT_EQ(alone("bx\tr3"), -1);
  EXPECT_EQ(alone("ldr\tpc, [r3, #4]"), -1);
  EXPECT_EQ(alone("bl\t8324 <memset+0x4>"), -1) << "into the middle of another function";
  EXPECT_EQ(alone("bl\t8400 <f>"), -1) << "recursion";
  EXPECT_EQ(alone("bl\t9000 <abort>"), -1) << "a callee not in the image";
  EXPECT_EQ(depth(kMemset, "memmove"), -1);
}

}  // namespace
}  // namespace microaot
