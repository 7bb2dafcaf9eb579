// memory_map.svg: the memory plan as a picture. x = op steps in execution order, y = byte offset with 0 at
// the BOTTOM; one box per non-empty buffer spanning [first_op, last_op + 1) x [offset, offset + size). With
// several pools (--pool) each pool is a panel of its own, stacked top to bottom in pool order, sharing the
// x axis. Standalone SVG 1.1: no scripts, no external fonts or CSS; tooltips are <title> elements.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "memory/bands.h"
#include "memory/buffer.h"
#include "memory/plan_report.h"

namespace microaot {

// One memory's plot: its own address scale.
struct SvgPanel {
  std::string pool;        // the pool's name; "" with one arena
  int64_t tick_bytes = 1;  // y tick spacing, a power of two, at most 8 ticks
  int64_t top_bytes = 1;   // address at the top: >= what is used, every buffer end (and the bound, one arena)
  double top = 0, plot_height = 0;

  double y(double address) const { return top + plot_height * (1.0 - address / static_cast<double>(top_bytes)); }
};

// The picture's geometry (pixels), public so that tests can check every box against the plan.
struct SvgLayout {
  int steps = 1;        // x axis columns: max(1, ops, last_op + 1 of every buffer)
  int label_every = 1;  // an x label every this many steps (1, 2, 5, 10, 20, 50, ...)
  double left = 0, step_width = 0;
  double width = 0, height = 0;  // the whole image
  std::vector<SvgPanel> panels;  // one per pool, in pool order; one for a single arena

  double x(double step) const { return left + step * step_width; }
  double bottom() const { return panels.back().top + panels.back().plot_height; }
};

SvgLayout memory_svg_layout(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                            const PoolLayout& pools = {});

// The SVG text. Deterministic: fixed-point numbers with at most two decimals, no locale. Each buffer box is
// <rect id="buf<record index>" class="tensor|scratch|input|output" ...> in its pool's panel with a <title>
// tooltip; in-place outputs get a dashed outline. Zero-size buffers get no box. Each fused-band chain is a
// translucent <rect class="chain"> over its steps, labelled with its band height, and a line buffer's tooltip
// says how many of its map's rows it keeps.
std::string render_memory_svg(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan,
                              const PoolLayout& pools = {}, const std::vector<FusedChain>& chains = {});

}  // namespace microaot
