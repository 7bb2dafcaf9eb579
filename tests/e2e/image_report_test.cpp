// Parsing the cross toolchain's reports: `size -A -d` sections and -fcallgraph-info=su call graphs.
#include "driver/image_report.h"

#include <gtest/gtest.h>

namespace microaot {
namespace {

TEST(ImageReport, SumsSectionsByKind) {
  const SectionSizes s = parse_size_output(
      "model.o  :\nsection           size   addr\n.text             1000      0\n.text.startup 20 0\n"
      ".rodata            300      0\n.rodata.str1.4 12 0\n.data 8 0\n.bss 4096 0\n.stack 131072 0\n"
      ".comment 38 0\n.ARM.attributes 50 0\n.debug_info 999 0\nTotal 5000\n");
  EXPECT_EQ(s.text, 1020);
  EXPECT_EQ(s.rodata, 312);
  EXPECT_EQ(s.data, 8);
  EXPECT_EQ(s.bss, 4096);
  EXPECT_EQ(s.flash(), 1340);
  EXPECT_EQ(s.ram(), 4104);
}

// VCG text as GCC writes it: one graph per translation unit; external callees have no frame size.
std::string graph(const std::string& file, const std::string& body) {
  return "graph: { title: \"" + file + "\"\n" + body + "}\n";
}
std::string node(const std::string& fn, int bytes, const std::string& kind = "static") {
  return "node: { title: \"" + fn + "\" label: \"" + fn + "\\nf.c:1:1\\n" + std::to_string(bytes) + " bytes (" +
         kind + ")\" }\n";
}
std::string external(const std::string& fn) {
  return "node: { title: \"" + fn + "\" label: \"" + fn + "\\nh.h:2:6\" shape : ellipse }\n";
}
std::string edge(const std::string& from, const std::string& to) {
  return "edge: { sourcename: \"" + from + "\" targetname: \"" + to + "\" label: \"f.c:3:3\" }\n";
}

TEST(ImageReport, StackBoundIsTheDeepestPathAcrossFiles) {
  const std::vector<std::string> graphs = {
      graph("model.c", node("model_run", 24) + external("conv") + external("softmax") + edge("model_run", "conv") +
                           edge("model_run", "softmax")),
      graph("conv.c", node("conv", 128) + node("helper", 16) + edge("conv", "helper")),
      graph("softmax.c", node("softmax", 100) + external("expf") + edge("softmax", "expf")),
  };
  const StackBound unknown = static_stack_bound(graphs, "model_run");
  EXPECT_EQ(unknown.bytes, -1) << "expf's depth is not known";
  EXPECT_EQ(unknown.externals, std::set<std::string>{"expf"});
  const auto expf_depth = [](const std::string& fn) -> int64_t { return fn == "expf" ? 8 : -1; };
  const StackBound shallow = static_stack_bound(graphs, "model_run", {}, expf_depth);
  EXPECT_EQ(shallow.bytes, 24 + 128 + 16);
  EXPECT_TRUE(shallow.externals.empty());
  const auto deep = [](const std::string&) -> int64_t { return 100; };
  EXPECT_EQ(static_stack_bound(graphs, "model_run", {}, deep).bytes, 24 + 100 + 100) << "expf's path is the deepest";
}

// GCC reports a naked function (its pushes written in its assembly) as a leaf of 0 bytes: the image's code gives its
// depth. Leaves with a frame, and functions that call others, keep the call graph's figure.
TEST(ImageReport, ZeroByteLeavesTakeTheirDepthFromTheCode) {
  const std::vector<std::string> graphs = {
      graph("model.c",
            node("run", 8) + external("rows") + external("conv") + edge("run", "rows") + edge("run", "conv")),
      graph("rows.c", node("rows", 0)),
      graph("conv.c", node("conv", 40)),
  };
  const auto code = [](const std::string& fn) -> int64_t { return fn == "rows" ? 56 : 4; };
  EXPECT_EQ(static_stack_bound(graphs, "run", {}, code).bytes, 8 + 56);
  EXPECT_EQ(static_stack_bound(graphs, "run").bytes, 8 + 40) << "without the code, the call graph's figures";
  const auto unknown = [](const std::string&) -> int64_t { return -1; };
  EXPECT_EQ(static_stack_bound(graphs, "run", {}, unknown).bytes, 8 + 40);
}

TEST(ImageReport, EveryUnboundedExternalIsListed) {
  const std::vector<std::string> graphs = {graph(
      "model.c", node("run", 8) + external("memcpy") + external("memset") + external("expf") + edge("run", "memcpy") +
                     edge("run", "memset") + edge("run", "expf"))};
  const auto memcpy_only = [](const std::string& fn) -> int64_t { return fn == "memcpy" ? 0 : -1; };
  const StackBound b = static_stack_bound(graphs, "run", {}, memcpy_only);
  EXPECT_EQ(b.bytes, -1);
  EXPECT_EQ(b.externals, (std::set<std::string>{"expf", "memset"}));
}

// The executor calls the model's step function through a pointer: GCC's "__indirect_call" callee.
TEST(ImageReport, IndirectCallsReachTheNamedTargets) {
  const std::vector<std::string> graphs = {
      graph("executor.c", node("model_run", 8) + node("executor.c:continue_run", 24) + external("__indirect_call") +
                              edge("model_run", "executor.c:continue_run") +
                              edge("executor.c:continue_run", "__indirect_call")),
      graph("model.c", node("model.c:model_step", 16) + external("conv") + edge("model.c:model_step", "conv")),
      graph("conv.c", node("conv", 128)),
  };
  EXPECT_EQ(static_stack_bound(graphs, "model_run", {"model_step"}).bytes, 8 + 24 + 16 + 128);
  EXPECT_EQ(static_stack_bound(graphs, "model_run").bytes, -1) << "an unknown target cannot be bounded";
  EXPECT_EQ(static_stack_bound(graphs, "model_run", {"other_step"}).bytes, -1);
}

// The graph executor: the core calls the interpreter's step through a pointer, the step each kernel's entry
// through another; the bound is the deepest chain, not recursion.
TEST(ImageReport, TwoLevelsOfIndirectCallsAreBounded) {
  const std::vector<std::string> graphs = {
      graph("executor.c", node("model_run", 8) + external("__indirect_call") + edge("model_run", "__indirect_call")),
      graph("graph_run.c", node("graph_step", 300) + external("__indirect_call") + edge("graph_step", "__indirect_call")),
      graph("table.c", node("table.c:entry_conv", 96) + node("table.c:entry_add", 40)),
  };
  EXPECT_EQ(static_stack_bound(graphs, "model_run", {"graph_step", "entry_conv", "entry_add"}).bytes, 8 + 300 + 96);
  EXPECT_EQ(static_stack_bound(graphs, "model_run", {"graph_step"}).bytes, -1) << "the entries are not named";
}

TEST(ImageReport, RecursionOrDynamicFramesAreUnbounded) {
  EXPECT_EQ(static_stack_bound({graph("a.c", node("run", 8) + node("f", 8) + edge("run", "f") + edge("f", "f"))}, "run")
                .bytes,
            -1);
  EXPECT_EQ(static_stack_bound({graph("a.c", node("run", 8) + node("f", 8, "dynamic") + edge("run", "f"))}, "run").bytes,
            -1);
  EXPECT_EQ(
      static_stack_bound({graph("a.c", node("run", 8) + node("f", 40, "dynamic,bounded") + edge("run", "f"))}, "run")
          .bytes,
      48);
  EXPECT_EQ(static_stack_bound({graph("a.c", node("other", 8))}, "run").bytes, -1);
}

}  // namespace
}  // namespace microaot
