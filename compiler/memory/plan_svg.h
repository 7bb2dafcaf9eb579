// memory_map.svg: the memory plan as a picture. x = op steps in execution order, y = arena address with
// offset 0 at the BOTTOM; one box per non-empty buffer spanning [first_op, last_op + 1) x [offset, offset + size).
// Standalone SVG 1.1: no scripts, no external fonts or CSS; tooltips are <title> elements.
#pragma once

#include <cstdint>
#include <string>

#include "ir/graph.h"
#include "memory/buffer.h"

namespace microaot {

// The picture's geometry (pixels), public so that tests can check every box against the plan.
struct SvgLayout {
  int steps = 1;           // x axis columns: max(1, ops, last_op + 1 of every buffer)
  int label_every = 1;     // an x label every this many steps (1, 2, 5, 10, 20, 50, ...)
  int64_t tick_bytes = 1;  // y tick spacing, a power of two, at most 8 ticks
  int64_t top_bytes = 1;   // address at the top of the plot: >= arena, lower bound and every buffer end
  double left = 0, top = 0, step_width = 0, plot_height = 0;
  double width = 0, height = 0;  // the whole image

  double x(double step) const { return left + step * step_width; }
  double y(double address) const { return top + plot_height * (1.0 - address / static_cast<double>(top_bytes)); }
};

SvgLayout memory_svg_layout(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan);

// The SVG text. Deterministic: fixed-point numbers with at most two decimals, no locale. Each buffer box is
// <rect id="buf<record index>" class="tensor|scratch|input|output" ...> with a <title> tooltip; in-place
// outputs get a dashed outline. Zero-size buffers get no box.
std::string render_memory_svg(const Graph& graph, const PlanRequest& request, const MemoryPlan& plan);

}  // namespace microaot
