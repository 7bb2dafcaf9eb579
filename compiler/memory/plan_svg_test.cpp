#include "memory/plan_svg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <locale>
#include <map>

#include "memory/liveness.h"
#include "memory/report_test_graph.h"

namespace microaot {
namespace {

using report_test::add_tensor;
using report_test::example;
using Attributes = std::map<std::string, std::string>;

struct Element {
  std::string name;
  Attributes attributes;
};

// A tiny XML checker: balanced and properly nested tags, quoted attributes, no raw '<' or stray '&' in text,
// one root element. Returns every start tag in document order; records a test failure on the first problem.
std::vector<Element> parse_xml(const std::string& text) {
  std::vector<Element> elements;
  std::vector<std::string> open;
  size_t roots = 0;
  for (size_t at = 0; at < text.size();) {
    if (text[at] == '&') {
      const size_t semi = text.find(';', at);
      const std::string entity = semi == std::string::npos ? "" : text.substr(at, semi - at + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" && entity != "&apos;") {
        ADD_FAILURE() << "bad entity at " << at;
        return {};
      }
      at = semi + 1;
      continue;
    }
    if (text[at] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(text[at]))) ADD_FAILURE() << "text outside root";
      ++at;
      continue;
    }
    const size_t close = text.find('>', at);
    if (close == std::string::npos) {
      ADD_FAILURE() << "unterminated tag at " << at;
      return {};
    }
    std::string tag = text.substr(at + 1, close - at - 1);
    at = close + 1;
    if (tag.front() == '?') continue;  // the XML declaration
    if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        ADD_FAILURE() << "</" << tag.substr(1) << "> does not close " << (open.empty() ? "anything" : open.back());
        return {};
      }
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    Element e;
    size_t pos = tag.find_first_of(" \n");
    e.name = tag.substr(0, pos);
    while (pos != std::string::npos && (pos = tag.find_first_not_of(" \n", pos)) != std::string::npos) {
      const size_t eq = tag.find('=', pos);
      if (eq == std::string::npos || eq + 1 >= tag.size() || tag[eq + 1] != '"') {
        ADD_FAILURE() << "unquoted attribute in <" << tag << ">";
        return {};
      }
      const size_t end = tag.find('"', eq + 2);
      if (end == std::string::npos || tag.substr(eq + 2, end - eq - 2).find('<') != std::string::npos) {
        ADD_FAILURE() << "bad attribute value in <" << tag << ">";
        return {};
      }
      e.attributes[tag.substr(pos, eq - pos)] = tag.substr(eq + 2, end - eq - 2);
      pos = end + 1;
    }
    if (open.empty()) ++roots;
    if (!self_closing) open.push_back(e.name);
    elements.push_back(e);
  }
  EXPECT_TRUE(open.empty()) << "unclosed <" << (open.empty() ? "" : open.back()) << ">";
  EXPECT_EQ(roots, 1u);
  return elements;
}

// Buffer boxes by record index, from <rect id="bufN">.
std::map<size_t, Attributes> buffer_rects(const std::vector<Element>& elements) {
  std::map<size_t, Attributes> rects;
  for (const Element& e : elements) {
    auto id = e.attributes.find("id");
    if (e.name != "rect" || id == e.attributes.end() || id->second.compare(0, 3, "buf") != 0) continue;
    const size_t index = std::stoul(id->second.substr(3));
    EXPECT_EQ(rects.count(index), 0u) << "two boxes for record " << index;
    rects[index] = e.attributes;
  }
  return rects;
}

double number(const Attributes& a, const std::string& key) {
  auto it = a.find(key);
  EXPECT_NE(it, a.end()) << key;
  return it == a.end() ? NAN : std::strtod(it->second.c_str(), nullptr);
}

// Every non-empty buffer has exactly one box in its pool's panel, placed by the documented scale:
// x = left + step * step_width over [first_op, last_op + 1), y = top + plot_height * (1 - address / top_bytes)
// over [offset, offset + size).
void expect_boxes_match(const PlanRequest& request, const MemoryPlan& plan, const SvgLayout& l,
                        const std::string& svg, const PoolLayout& pools = {}) {
  const std::map<size_t, Attributes> rects = buffer_rects(parse_xml(svg));
  size_t non_empty = 0;
  for (size_t i = 0; i < request.records.size(); ++i) {
    const BufferRecord& r = request.records[i];
    if (r.size == 0) {
      EXPECT_EQ(rects.count(i), 0u) << "empty record " << i << " has a box";
      continue;
    }
    ++non_empty;
    auto it = rects.find(i);
    ASSERT_NE(it, rects.end()) << "record " << i << " has no box";
    const SvgPanel& panel = l.panels.at(pools.empty() ? 0 : pools.pool_of[i]);
    const double px_per_byte = panel.plot_height / static_cast<double>(panel.top_bytes);
    const Attributes& a = it->second;
    EXPECT_NEAR(number(a, "x"), l.left + r.first_op * l.step_width, 0.006) << i;
    EXPECT_NEAR(number(a, "width"), (r.last_op - r.first_op + 1) * l.step_width, 0.011) << i;
    EXPECT_NEAR(number(a, "y"), panel.top + panel.plot_height - (plan.offsets[i] + r.size) * px_per_byte, 0.006) << i;
    EXPECT_NEAR(number(a, "height"), r.size * px_per_byte, 0.011) << i;
  }
  EXPECT_EQ(rects.size(), non_empty);
}

void expect_sane_panel(const SvgPanel& panel, int64_t at_least) {
  EXPECT_GE(panel.top_bytes, at_least);
  EXPECT_EQ(panel.tick_bytes & (panel.tick_bytes - 1), 0) << "tick " << panel.tick_bytes << " is not a power of two";
  EXPECT_EQ(panel.top_bytes % panel.tick_bytes, 0);
  EXPECT_LE(panel.top_bytes / panel.tick_bytes, 8);
}

void expect_sane_layout(const PlanRequest& request, const MemoryPlan& plan, const SvgLayout& l) {
  ASSERT_EQ(l.panels.size(), 1u);
  expect_sane_panel(l.panels[0], std::max(plan.arena_size, peak_live_bytes(request.records).bytes));
  EXPECT_GE(l.label_every * l.step_width, 12.0);
  EXPECT_GE(l.width, l.left + l.steps * l.step_width);
  EXPECT_GE(l.height, l.bottom());
}

TEST(PlanSvg, WellFormedBoxesMatchThePlan) {
  report_test::Example e = example();
  const std::string svg = render_memory_svg(e.graph, e.request, e.plan);
  const SvgLayout l = memory_svg_layout(e.graph, e.request, e.plan);
  EXPECT_EQ(l.steps, 4);
  EXPECT_EQ(l.panels[0].tick_bytes, 8);  // bound 64 -> 8 ticks of 8 bytes
  EXPECT_EQ(l.panels[0].top_bytes, 64);
  expect_sane_layout(e.request, e.plan, l);
  expect_boxes_match(e.request, e.plan, l, svg);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("@import"), std::string::npos);
}

TEST(PlanSvg, ColoursByKindAndDashesInPlaceOutputs) {
  report_test::Example e = example();
  const std::map<size_t, Attributes> rects = buffer_rects(parse_xml(render_memory_svg(e.graph, e.request, e.plan)));
  ASSERT_EQ(rects.size(), 5u);
  const char* expected[] = {"input", "tensor", "tensor", "output", "scratch"};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(rects.at(i).at("class"), expected[i]) << i;
  EXPECT_EQ(rects.at(2).count("stroke-dasharray"), 1u);
  EXPECT_EQ(rects.at(1).count("stroke-dasharray"), 0u);
}

TEST(PlanSvg, TooltipsAndLinesCarryTheNumbers) {
  report_test::Example e = example();
  e.graph.tensors[1].name = "a<&>\"'";
  const std::string svg = render_memory_svg(e.graph, e.request, e.plan);
  parse_xml(svg);
  EXPECT_NE(svg.find("<title>t1 a&lt;&amp;&gt;&quot;&apos;\n32 bytes at [0, 32), align 16\nsteps 0 CONV_2D .. 1 ADD"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("over t1 (shift 0)</title>"), std::string::npos);
  EXPECT_NE(svg.find(">arena 56 bytes</text>"), std::string::npos);
  EXPECT_NE(svg.find(">lower bound 64 bytes</text>"), std::string::npos);
  EXPECT_NE(svg.find("0 at the bottom"), std::string::npos);
}

// A fused-band chain over steps 0-1 (a in a line buffer of 2 of its 4 rows): a strip over its steps in the
// panel, labelled with its band height, and the line buffer's rows in a's tooltip; the boxes unchanged.
TEST(PlanSvg, ChainsAreStripsAndLineBuffersSayTheirRows) {
  report_test::Example e = example();
  FusedChain chain;
  chain.first_step = 0;
  chain.last_step = 1;
  chain.band_rows = 1;
  chain.layers.resize(2);
  chain.layers[0].output_rows = chain.layers[1].output_rows = 4;
  chain.schedule.line_rows = {2};
  const std::string svg = render_memory_svg(e.graph, e.request, e.plan, {}, {chain});
  const SvgLayout l = memory_svg_layout(e.graph, e.request, e.plan);
  const std::vector<Element> elements = parse_xml(svg);
  expect_boxes_match(e.request, e.plan, l, svg);
  int strips = 0;
  for (const Element& el : elements) {
    if (el.name != "rect" || el.attributes.count("class") == 0 || el.attributes.at("class") != "chain") continue;
    ++strips;
    EXPECT_NEAR(number(el.attributes, "x"), l.left, 0.006);
    EXPECT_NEAR(number(el.attributes, "width"), 2 * l.step_width, 0.011);
  }
  EXPECT_EQ(strips, 1);
  EXPECT_NE(svg.find("bands of 1 rows, steps 0-1</text>"), std::string::npos);
  EXPECT_NE(svg.find("line buffer: 2 of 4 rows (fused bands, steps 0-1)</title>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("line buffer", svg.find("id=\"buf2\"")), std::string::npos) << "only a is a line buffer";
  EXPECT_EQ(render_memory_svg(e.graph, e.request, e.plan).find("class=\"chain\""), std::string::npos);
}

// Each pool is a panel with its own scale; b no longer counts as written over a.
TEST(PlanSvg, EachPoolIsAPanelOfItsOwn) {
  report_test::Example e = example();
  const PoolLayout pools = report_test::example_pools(e);
  const SvgLayout l = memory_svg_layout(e.graph, e.request, e.plan, pools);
  ASSERT_EQ(l.panels.size(), 2u);
  EXPECT_EQ(l.panels[0].pool, "fast");
  EXPECT_EQ(l.panels[1].pool, "slow");
  expect_sane_panel(l.panels[0], 48);
  expect_sane_panel(l.panels[1], 40);
  EXPECT_GT(l.panels[1].top, l.panels[0].top + l.panels[0].plot_height);  // stacked, pool order from the top
  EXPECT_GE(l.height, l.bottom());
  const std::string svg = render_memory_svg(e.graph, e.request, e.plan, pools);
  expect_boxes_match(e.request, e.plan, l, svg, pools);
  EXPECT_EQ(buffer_rects(parse_xml(svg)).at(2).count("stroke-dasharray"), 0u) << "b over a across pools";
  EXPECT_NE(svg.find(">pool fast (the arena): 48 of 64 bytes used, planner by_hand, m_static_arena</text>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">pool slow: 40 of 100 bytes used, planner greedy, m_pool_slow</text>"), std::string::npos);
  EXPECT_NE(svg.find("32 bytes at [0, 32) in pool slow, align 16"), std::string::npos);
  EXPECT_NE(svg.find("2 pools, 88 bytes in all, lower bound 64 bytes"), std::string::npos);
}

TEST(PlanSvg, ControlCharactersAndInvalidUtf8BecomeQuestionMarks) {
  report_test::Example e = example();
  e.graph.tensors[0].name = "in\x01\xff\xc3\xa9\xe2\x82";  // control, stray byte, 'é', truncated sequence
  const std::string svg = render_memory_svg(e.graph, e.request, e.plan);
  parse_xml(svg);
  EXPECT_NE(svg.find("<title>t0 in??\xc3\xa9??\n"), std::string::npos) << svg;
}

// A locale that groups digits: output must not change under it.
struct Grouping : std::numpunct<char> {
  char do_thousands_sep() const override { return '\''; }
  std::string do_grouping() const override { return "\3"; }
  char do_decimal_point() const override { return ','; }
};

TEST(PlanSvg, DeterministicWhateverTheLocale) {
  report_test::Example e = example();
  for (BufferRecord& r : e.request.records) r.size *= 1000;
  for (int64_t& offset : e.plan.offsets) offset *= 1000;
  e.plan.arena_size *= 1000;
  const std::string first = render_memory_svg(e.graph, e.request, e.plan);
  const std::locale saved = std::locale::global(std::locale(std::locale::classic(), new Grouping));
  const std::string second = render_memory_svg(e.graph, e.request, e.plan);
  std::locale::global(saved);
  EXPECT_EQ(first, second);
  EXPECT_NE(first.find(">arena 56000 bytes<"), std::string::npos);
}

TEST(PlanSvg, EmptyPlan) {
  Graph g;
  const std::string svg = render_memory_svg(g, PlanRequest{}, MemoryPlan{});
  EXPECT_TRUE(buffer_rects(parse_xml(svg)).empty());
  EXPECT_NE(svg.find("no buffers"), std::string::npos);
  expect_sane_layout(PlanRequest{}, MemoryPlan{}, memory_svg_layout(g, PlanRequest{}, MemoryPlan{}));
}

TEST(PlanSvg, ZeroSizeBufferGetsNoBox) {
  report_test::Example e = example();
  e.request.records[4].size = 0;  // the scratch
  e.plan.arena_size = 48;
  const std::string svg = render_memory_svg(e.graph, e.request, e.plan);
  expect_boxes_match(e.request, e.plan, memory_svg_layout(e.graph, e.request, e.plan), svg);
}

// Scaling: a 32-byte arena over one step, and a few MB over 200 steps, stay readable and exact.
TEST(PlanSvg, ScalesFromTinyToLarge) {
  Graph tiny;
  const int t = add_tensor(tiny, "x", 32);
  tiny.ops.push_back(Op{OpKind::Softmax, 0, 1, {t}, {t}, NoOptions{}});
  PlanRequest tiny_request{{{t, 32, 16, 0, 0, BufferKind::kTensor}}, {}};
  MemoryPlan tiny_plan{{0}, 32, "by_hand"};
  SvgLayout l = memory_svg_layout(tiny, tiny_request, tiny_plan);
  EXPECT_EQ(l.panels[0].tick_bytes, 4);
  EXPECT_EQ(l.label_every, 1);
  expect_sane_layout(tiny_request, tiny_plan, l);
  expect_boxes_match(tiny_request, tiny_plan, l, render_memory_svg(tiny, tiny_request, tiny_plan));

  Graph big;
  PlanRequest request;
  MemoryPlan plan{{}, 0, "by_hand"};
  int previous = add_tensor(big, "t0", 3 << 20);
  for (int step = 0; step < 200; ++step) {
    const int next = add_tensor(big, "t" + std::to_string(step + 1), (step % 3 + 1) << 20);
    big.ops.push_back(Op{OpKind::Conv2D, step, 1, {previous}, {next}, NoOptions{}});
    previous = next;
  }
  for (int step = 0; step < 200; ++step) {  // buffer of op `step`'s output, ping-ponging between two halves
    const int64_t size = (step % 3 + 1) << 20;
    request.records.push_back({step + 1, size, 16, step, std::min(step + 1, 199), BufferKind::kTensor});
    plan.offsets.push_back(step % 2 == 0 ? 0 : 3 << 20);
  }
  plan.arena_size = 6 << 20;
  l = memory_svg_layout(big, request, plan);
  EXPECT_EQ(l.steps, 200);
  EXPECT_GT(l.label_every, 1);
  EXPECT_LE(l.width, 1600);
  expect_sane_layout(request, plan, l);
  expect_boxes_match(request, plan, l, render_memory_svg(big, request, plan));
}

}  // namespace
}  // namespace microaot
