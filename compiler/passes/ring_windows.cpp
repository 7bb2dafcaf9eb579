// A streaming model keeps its last frames in a variable. Every step it joins the new frame to them
// (CONCATENATION), drops the oldest (STRIDED_SLICE) and assigns the rest back (ASSIGN_VARIABLE), in one of two
// orders: join then slice (the joined window feeds a conv) or slice then join (the window is assigned whole).
// Each step so copies the whole buffer two or three times. Here the variable becomes a mirrored ring
// (runtime kernels/ring.h) of `slots` units, a unit being the bytes one step adds and `slots` the units of
// the window: one push writes the new unit twice, and the window becomes a view that starts at the ring's
// position. The pattern's ops only move bytes, so every result stays the same to the bit.
// Only for the AOT executor, whose generated code computes the window's address each step.
#include <algorithm>
#include <optional>
#include <vector>

#include "ops/byte_moves.h"
#include "ops/op_options.h"
#include "passes/pass.h"

namespace microaot {
namespace {

// The ops of one matched pattern (indices into graph.ops) and what the ring needs.
struct FrameWindow {
  size_t read = 0, join = 0, slice = 0, assign = 0;
  int variable = -1, unit = -1, window = -1, rest = -1;  // rest: the slice's output
  int64_t unit_bytes = 0;
  int32_t slots = 0;
  int64_t kept_from = 0;  // the variable's first byte that is still in the window (slice then join: one unit)
};

std::vector<size_t> readers_of(const Graph& graph, int id) {
  std::vector<size_t> readers;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const std::vector<int>& in = graph.ops[i].inputs;
    if (std::find(in.begin(), in.end(), id) != in.end()) readers.push_back(i);
  }
  return readers;
}

std::optional<size_t> only_reader(const Graph& graph, int id) {
  const std::vector<size_t> readers = readers_of(graph, id);
  if (readers.size() != 1) return std::nullopt;
  return readers[0];
}

// The one op that writes `id` (by storage), when there is exactly one.
std::optional<size_t> only_writer(const Graph& graph, int id) {
  std::optional<size_t> writer;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    for (int out : graph.ops[i].outputs) {
      if (out == kNoTensor || graph.storage_of(out) != id) continue;
      if (writer.has_value()) return std::nullopt;
      writer = i;
    }
  }
  return writer;
}

bool is_graph_output(const Graph& graph, int id) {
  return std::any_of(graph.outputs.begin(), graph.outputs.end(),
                     [&](int out) { return graph.storage_of(out) == graph.storage_of(id); });
}

bool is_kind(const Graph& graph, size_t op, OpKind kind) { return graph.ops[op].kind == kind; }

// Whether a view (an aliased RESHAPE or SQUEEZE) shares one of `ids`: the rewrite moves or drops those
// tensors, and a view's readers would go on reading the old place.
bool has_views(const Graph& graph, const std::vector<int>& ids) {
  return std::any_of(graph.tensors.begin(), graph.tensors.end(), [&](const Tensor& t) {
    return std::find(ids.begin(), ids.end(), t.alias_of) != ids.end();
  });
}

// A CONCATENATION of exactly {first, unit} laid end to end; the unit's id, or nullopt.
std::optional<int> joined_unit(const Graph& graph, size_t op, int first) {
  const Op& join = graph.ops[op];
  if (join.kind != OpKind::Concatenation || join.inputs.size() != 2 || join.inputs[0] != first) return std::nullopt;
  if (!concatenation_joins_bytes(graph, join)) return std::nullopt;
  return join.inputs[1];
}

// A SLICE or STRIDED_SLICE that drops exactly the first `bytes` of its input; its output, or nullopt.
std::optional<int> drops_first(const Graph& graph, size_t op, int64_t bytes) {
  const Op& slice = graph.ops[op];
  if (slice.kind != OpKind::StridedSlice && slice.kind != OpKind::Slice) return std::nullopt;
  const int out = slice.outputs[0];
  const int64_t left = graph.tensor(slice.inputs[0]).byte_size() - bytes;
  if (slice_byte_offset(graph, slice) != std::optional<int64_t>(bytes) || graph.tensor(out).byte_size() != left) {
    return std::nullopt;
  }
  return out;
}

// Join then slice: window = CONCATENATION(read, unit); ASSIGN(window minus its first unit).
bool match_join_first(const Graph& graph, size_t join, FrameWindow& w) {
  const int read_copy = graph.ops[w.read].outputs[0];
  const std::optional<int> unit = joined_unit(graph, join, read_copy);
  if (!unit || *unit == read_copy) return false;  // the push must not read what leaves the schedule
  w.join = join;
  w.unit = *unit;
  w.window = graph.ops[join].outputs[0];
  w.unit_bytes = graph.tensor(*unit).byte_size();
  for (size_t slice : readers_of(graph, w.window)) {
    const std::optional<int> rest = drops_first(graph, slice, w.unit_bytes);
    if (rest && only_reader(graph, *rest) == std::optional<size_t>(w.assign)) {
      w.slice = slice;
      w.rest = *rest;
      w.kept_from = 0;
      return graph.ops[w.assign].inputs[0] == *rest;
    }
  }
  return false;
}

// Slice then join: window = CONCATENATION(read minus its first unit, unit); ASSIGN(window).
bool match_slice_first(const Graph& graph, size_t slice, FrameWindow& w) {
  const Tensor& variable = graph.tensor(w.variable);
  const int read_copy = graph.ops[w.read].outputs[0];
  const int64_t dropped = variable.byte_size() - graph.tensor(graph.ops[slice].outputs[0]).byte_size();
  const std::optional<int> rest = dropped > 0 ? drops_first(graph, slice, dropped) : std::nullopt;
  if (!rest || graph.ops[slice].inputs[0] != read_copy) return false;
  const std::optional<size_t> join = only_reader(graph, *rest);
  const std::optional<int> unit = join ? joined_unit(graph, *join, *rest) : std::nullopt;
  if (!unit || *unit == *rest || graph.tensor(*unit).byte_size() != dropped) return false;
  w.slice = slice;
  w.rest = *rest;
  w.join = *join;
  w.unit = *unit;
  w.window = graph.ops[*join].outputs[0];
  w.unit_bytes = dropped;
  w.kept_from = dropped;
  return graph.ops[w.assign].inputs[0] == w.window;
}

// The pattern around the READ_VARIABLE ops[read], when its variable is read and written by it alone.
std::optional<FrameWindow> match(const Graph& graph, size_t read) {
  FrameWindow w;
  w.read = read;
  w.variable = graph.ops[read].inputs[0];
  const int read_copy = graph.ops[read].outputs[0];
  const Tensor& variable = graph.tensor(w.variable);
  if (!variable.is_persistent || variable.alias_of >= 0 || is_graph_output(graph, read_copy)) return std::nullopt;
  const std::optional<size_t> assign = only_writer(graph, w.variable);
  const std::optional<size_t> next = only_reader(graph, read_copy);
  if (!assign || !is_kind(graph, *assign, OpKind::AssignVariable) || !next || readers_of(graph, w.variable).size() != 1) {
    return std::nullopt;
  }
  w.assign = *assign;
  if (!match_join_first(graph, *next, w) && !match_slice_first(graph, *next, w)) return std::nullopt;
  const int64_t window_bytes = graph.tensor(w.window).byte_size();
  if (w.unit_bytes <= 0 || window_bytes % w.unit_bytes != 0 || is_graph_output(graph, w.window) ||
      graph.tensor(w.unit).is_persistent || !(w.read < w.join && w.join < w.assign) ||
      has_views(graph, {w.variable, read_copy, w.rest, w.window})) {
    return std::nullopt;
  }
  w.slots = static_cast<int32_t>(window_bytes / w.unit_bytes);
  return w;
}

// The variable's bytes as the ring's storage: 2 * slots - 1 units, position 0. Before the first push the
// window to come is slots 1 .. slots-1 (the units still kept, oldest first) and their mirrors.
std::vector<uint8_t> initial_ring(const Tensor& variable, const FrameWindow& w) {
  const size_t unit = static_cast<size_t>(w.unit_bytes);
  std::vector<uint8_t> ring(unit * (2 * static_cast<size_t>(w.slots) - 1), 0);
  if (variable.data.empty()) return ring;  // no initial value: zeros
  for (size_t slot = 1; slot < static_cast<size_t>(w.slots); ++slot) {
    const auto from = variable.data.begin() + static_cast<std::ptrdiff_t>(w.kept_from + (slot - 1) * unit);
    std::copy(from, from + static_cast<std::ptrdiff_t>(unit), ring.begin() + static_cast<std::ptrdiff_t>(slot * unit));
    if (slot + 1 < static_cast<size_t>(w.slots)) {
      std::copy(from, from + static_cast<std::ptrdiff_t>(unit),
                ring.begin() + static_cast<std::ptrdiff_t>((slot + w.slots) * unit));
    }
  }
  return ring;
}

int add_position(Graph& graph, const std::string& variable_name) {
  graph.tensors.push_back(ring_position_tensor(variable_name));
  return static_cast<int>(graph.tensors.size()) - 1;
}

// Rewrites one match: the push takes the join's place; the read, the slice and the assign leave.
void make_ring(Graph& graph, const FrameWindow& w, std::vector<bool>& removed) {
  Tensor& variable = graph.tensor(w.variable);
  variable.data = initial_ring(variable, w);
  variable.shape = {static_cast<int32_t>(static_cast<int64_t>(variable.data.size()) /
                                         static_cast<int64_t>(dtype_size(variable.dtype)))};
  const int position = add_position(graph, graph.tensor(w.variable).name);
  Tensor& window = graph.tensor(w.window);
  window.alias_of = w.variable;
  window.ring = RingWindow{position, w.unit_bytes, w.slots};
  Op& push = graph.ops[w.join];
  push.kind = OpKind::AssignVariable;
  push.source_index = graph.ops[w.assign].source_index;
  push.version = 1;
  push.inputs = {w.unit};
  push.outputs = {w.variable, position};
  push.options = RingPushOptions{w.unit_bytes, w.slots};
  for (size_t op : {w.read, w.slice, w.assign}) removed[op] = true;
}

}  // namespace

bool ring_windows(Graph& graph, PassContext& ctx) {
  if (!ctx.ring_windows) return false;
  std::vector<bool> removed(graph.ops.size(), false);
  bool changed = false;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (removed[i] || graph.ops[i].kind != OpKind::ReadVariable) continue;
    if (const std::optional<FrameWindow> w = match(graph, i)) {
      make_ring(graph, *w, removed);
      changed = true;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (!removed[i]) graph.ops[kept++] = graph.ops[i];
  }
  graph.ops.resize(kept);
  return changed;
}

}  // namespace microaot
