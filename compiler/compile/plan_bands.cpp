#include "compile/plan_bands.h"

#include <algorithm>
#include <set>

#include "memory/band_choice.h"
#include "ops/palette_weights.h"
#include "ops/remap_common.h"

namespace microaot {

namespace {

// The params structs whose kernels compute any range of output rows from the rows they read, given the
// band's heights and top padding (the same fields in every element type).
const std::set<std::string>& streamable_params() {
  static const std::set<std::string> names = {
      "conv_2d_params_q",           "conv_2d_params_f32",           "conv_2d_params_hybrid",
      "depthwise_conv_2d_params_q", "depthwise_conv_2d_params_f32", "depthwise_conv_2d_params_hybrid",
      "pool_2d_params_q",           "pool_2d_params_f32"};
  return names;
}

int64_t int_field(const KernelCall& call, const std::string& field) {
  const ParamValue* v = call.params.find(field);
  MICROAOT_CHECK(v != nullptr, "band layer without field " + field);
  return v->integer;
}

bool is_pool(const KernelCall& call) { return call.info().params->name.rfind("pool_2d", 0) == 0; }

// The cost model's family of a convolution, depthwise convolution or pool (memory/band_cost.def).
BandFamily family_of(const KernelCall& call) {
  if (is_pool(call)) return BandFamily::kPool;
  if (call.info().params->name.rfind("depthwise", 0) == 0) return BandFamily::kDepthwise;
  const bool pointwise = int_field(call, "filter_height") == 1 && int_field(call, "filter_width") == 1;
  return pointwise ? BandFamily::kPointwise : BandFamily::kConv;
}

// The cost model's family of a step whose kernel has an in-place variant the model prices; false for others.
bool priced_family(const CompiledModel& model, size_t step, BandFamily& family) {
  const KernelCall& call = model.calls[step];
  if (call.custom || call.kernel < 0 || streamable_params().count(call.info().params->name) == 0) return false;
  family = family_of(call);
  return !model.graph.ops[step].inputs.empty();
}

int64_t row_bytes(const Tensor& t) {
  return t.shape.size() == 4 && t.shape[1] > 0 ? t.byte_size() / t.shape[1] : 0;
}

// A same-shape ADD over one image (no broadcast): row y of the output reads row y of both operands.
bool residual_add(const CompiledModel& model, size_t step, BandLayer& layer) {
  const KernelCall& call = model.calls[step];
  const Op& op = model.graph.ops[step];
  if (op.kind != OpKind::Add || op.inputs.size() != 2 || op.outputs.size() != 1) return false;
  const std::string& params = call.info().params->name;
  if ((params != "add_params_q" && params != "binary_params_f32") || int_field(call, "num_dims") != 0) return false;
  const Tensor& out = model.graph.tensor(op.outputs[0]);
  for (int id : op.inputs) {
    const Tensor& in = model.graph.tensor(id);
    if (in.is_constant || in.shape != out.shape || in.dtype != out.dtype) return false;
  }
  if (out.shape.size() != 4 || out.shape[0] != 1 || out.shape[1] < 2) return false;
  layer.input_rows = layer.output_rows = out.shape[1];
  layer.input_row_bytes = layer.output_row_bytes = row_bytes(out);
  layer.channels = out.shape[3];
  layer.family = BandFamily::kAdd;
  return int_field(call, "flat_size") == out.num_elements() && layer.output_row_bytes > 0;
}

// A layout op lowered to the remap kernel (TRANSPOSE, ...) over one image whose output row y reads its input
// from byte table[y] = table[0] + y * s on: a band of rows [a, b) is the remap of b - a rows from the input
// shifted by a * s (emit_bands.cpp), so it may head a chain (BandLayer::layout_head). No table entry is
// negative (no fill), so no band reads below a * s: the input bytes below are free for the chain's output
// (bands_output_shift, as for rows of a row-major input).
bool layout_head(const CompiledModel& model, size_t step, BandLayer& layer) {
  const KernelCall& call = model.calls[step];
  const Op& op = model.graph.ops[step];
  if (call.stem != kRemapStem || op.inputs.empty() || op.outputs.size() != 1 || int_field(call, "rank") != 4) return false;
  const Tensor& in = model.graph.tensor(op.inputs[0]);
  const Tensor& out = model.graph.tensor(op.outputs[0]);
  const std::vector<int64_t>& dims = call.params.find("out_dims")->integers;
  const std::vector<int64_t>& offsets = call.params.find("offsets")->integers;
  if (in.is_constant || out.shape.size() != 4 || dims.size() != 4 || dims[0] != 1 || dims[1] < 2) return false;
  int64_t entries = 0;  // one table entry per coordinate of each dimension
  for (size_t d = 0; d < 4; ++d) {
    if (dims[d] != out.shape[d]) return false;
    entries += dims[d];
  }
  if (static_cast<int64_t>(offsets.size()) != entries) return false;
  const int64_t* rows = offsets.data() + dims[0];  // the table of output dimension 1
  const int64_t step_bytes = rows[1] - rows[0];
  if (step_bytes <= 0 || std::any_of(offsets.begin(), offsets.end(), [](int64_t o) { return o < 0; })) return false;
  for (int64_t y = 1; y < dims[1]; ++y) {
    if (rows[y] != rows[0] + y * step_bytes) return false;
  }
  layer.input_rows = layer.output_rows = dims[1];
  layer.input_row_bytes = step_bytes;
  layer.output_row_bytes = row_bytes(out);
  layer.channels = out.shape[3];
  layer.layout_head = true;
  layer.family = BandFamily::kLayout;
  return layer.output_row_bytes > 0;
}

// The rows geometry of a step whose kernel can run on row ranges; false for any other. A residual ADD's
// skip operand is set by chain_of.
bool band_layer(const CompiledModel& model, size_t step, BandLayer& layer) {
  const KernelCall& call = model.calls[step];
  const Op& op = model.graph.ops[step];
  if (call.custom || call.kernel < 0) return false;
  if (call.stem == kRemapStem) return layout_head(model, step, layer);
  if (streamable_params().count(call.info().params->name) == 0) return residual_add(model, step, layer);
  if (call.stem.find("_global") != std::string::npos || op.inputs.empty() || op.outputs.size() != 1) return false;
  if (int_field(call, "batches") != 1) return false;
  const Tensor& in = model.graph.tensor(op.inputs[0]);
  const Tensor& out = model.graph.tensor(op.outputs[0]);
  if (in.is_constant || in.shape.size() != 4 || out.shape.size() != 4) return false;
  const bool pool = is_pool(call);
  layer.input_rows = int_field(call, "input_height");
  layer.output_rows = int_field(call, "output_height");
  layer.stride = int_field(call, "stride_height");
  layer.pad = int_field(call, pool ? "padding_height" : "pad_height");
  layer.extent = (int_field(call, "filter_height") - 1) * (pool ? 1 : int_field(call, "dilation_height")) + 1;
  layer.input_row_bytes = row_bytes(in);
  layer.output_row_bytes = row_bytes(out);
  layer.weights = !pool && op.inputs.size() > 1 ? model.graph.tensor(op.inputs[1]).num_elements() : 0;
  layer.channels = out.shape[3];
  layer.family = family_of(call);
  // A DSP palette kernel decodes its weights once per call: once per band here, which the cost model counts.
  layer.call_setup = palette_decode_per_call(model.graph, call);
  return layer.output_rows >= 2 && layer.input_rows == in.shape[1] && layer.output_rows == out.shape[1] &&
         layer.input_row_bytes > 0 && layer.output_row_bytes > 0;
}

int output_storage(const Graph& g, size_t step) { return g.storage_of(g.ops[step].outputs[0]); }

// The last step that reads step's output when it may live in a line buffer (a plain arena tensor that is no
// graph input or output, read by later steps only); -1 when it may not.
int last_reader(const CompiledModel& model, size_t step) {
  const Graph& g = model.graph;
  const int storage = output_storage(g, step);
  const Tensor& t = g.tensor(storage);
  const auto is_it = [&](int id) { return id != kNoTensor && g.storage_of(id) == storage; };
  if (t.is_persistent || t.ring.position >= 0 || std::any_of(g.inputs.begin(), g.inputs.end(), is_it) ||
      std::any_of(g.outputs.begin(), g.outputs.end(), is_it)) {
    return -1;
  }
  int last = -1;
  for (size_t s = 0; s < g.ops.size(); ++s) {
    const Op& op = g.ops[s];
    const auto uses = std::count_if(op.inputs.begin(), op.inputs.end(), is_it);
    if (uses == 0) continue;
    if (s <= step || uses > 1) return -1;
    last = static_cast<int>(s);
  }
  return last;
}

// Whether step `s` of a chain starting at `first` takes the previous step's output as its data input (a
// residual ADD: as one operand, its skip from the chain's input or an earlier step's output); sets the skip.
bool chains_on(const CompiledModel& model, size_t first, size_t s, BandLayer& layer) {
  const Graph& g = model.graph;
  const Op& op = g.ops[s];
  const int previous = output_storage(g, s - 1);
  if (op.kind != OpKind::Add) return g.storage_of(op.inputs[0]) == previous;
  const int a = g.storage_of(op.inputs[0]), b = g.storage_of(op.inputs[1]);
  if ((a == previous) == (b == previous)) return false;
  const int skip = a == previous ? b : a;
  if (skip == g.storage_of(g.ops[first].inputs[0])) {
    layer.skip = kChainInput;
    return model.calls[first].stem != kRemapStem;  // a layout head's input has other rows
  }
  for (size_t k = first; k + 1 < s; ++k) {
    if (output_storage(g, k) == skip) {
      layer.skip = static_cast<int>(k - first);
      return true;
    }
  }
  return false;
}

FusedChain candidate(size_t first, size_t last, const std::vector<BandLayer>& chain, int64_t rows, BandPace pace) {
  FusedChain c;
  c.first_step = static_cast<int>(first);
  c.last_step = static_cast<int>(last);
  c.band_rows = rows;
  c.pace = pace;
  c.layers = chain;
  c.schedule = schedule_bands(chain, rows, pace);
  c.extra_instructions = bands_cost(chain, c.schedule);
  c.output_shift = bands_output_shift(chain, c.schedule);
  c.schedule.actions.clear();  // kept for the chosen chains only (choose_bands schedules them again)
  c.schedule.actions.shrink_to_fit();
  return c;
}

// The longest chain the candidates list (its compile time grows with the square of the length).
constexpr size_t kMaxChainSteps = 40;

// Chain c's span (memory/band_choice.h): its steps and each intermediate map's line buffer, without overlap.
ChainSpan span_of(const CompiledModel& model, const FusedChain& c) {
  ChainSpan s;
  s.first_step = c.first_step;
  s.last_step = c.last_step;
  for (int step = c.first_step; step < c.last_step; ++step) {
    const size_t i = static_cast<size_t>(step - c.first_step);
    s.line_buffers.push_back({output_storage(model.graph, static_cast<size_t>(step)),
                              c.schedule.line_rows[i] * c.layers[i].output_row_bytes});
  }
  return s;
}

// The bytes chain c's output and input share at its permitted shift (`records` banded), or 0.
int64_t overlap_of(const CompiledModel& model, const std::vector<BufferRecord>& records, const FusedChain& c) {
  OverlapPermit p;
  if (!chain_permit(model, records, c, p)) return 0;
  const int64_t in = records[p.input].size, out = records[p.output].size;
  const int64_t span = p.max_shift >= 0 ? std::max(in, out + p.max_shift) : std::max(in - p.max_shift, out);
  return std::max<int64_t>(0, in + out - span);
}

// Bytes live at each step of the banded records, less what each chain's permit lets its output and input share.
std::vector<int64_t> live_per_step(const CompiledModel& model, const std::vector<BufferRecord>& records,
                                   const std::vector<FusedChain>& chains) {
  std::vector<ChainSpan> spans;
  for (const FusedChain& c : chains) {
    spans.push_back(ChainSpan{c.first_step, c.last_step, {}, overlap_of(model, records, c)});
  }
  return live_bytes(records, spans, model.graph.ops.size());
}

}  // namespace

std::vector<FusedChain> band_candidates(const CompiledModel& model) {
  std::vector<FusedChain> candidates;
  const size_t n = model.calls.size();
  std::vector<BandLayer> layers(n);
  std::vector<bool> ok(n, false);
  std::vector<int> readers_end(n, -1);
  for (size_t s = 0; s < n; ++s) {
    ok[s] = band_layer(model, s, layers[s]);
    layers[s].in_place_untiled = s < model.planned_variants.size() && model.planned_variants[s] != KernelVariant::kPlain;
    if (ok[s]) readers_end[s] = last_reader(model, s);
  }
  for (size_t first = 0; first < n; ++first) {
    if (!ok[first] || model.graph.ops[first].kind == OpKind::Add) continue;
    std::vector<BandLayer> chain = {layers[first]};
    int reads_until = -1;  // the last step that reads an intermediate map of the chain
    for (size_t last = first + 1; last < n && last - first < kMaxChainSteps && ok[last] && !layers[last].layout_head;
         ++last) {
      if (readers_end[last - 1] < 0) break;
      BandLayer layer = layers[last];
      if (!chains_on(model, first, last, layer)) break;
      chain.push_back(layer);
      reads_until = std::max(reads_until, readers_end[last - 1]);
      if (reads_until > static_cast<int>(last)) continue;  // a later step reads an intermediate: longer only
      for (const BandPace pace : {BandPace::kLastLayer, BandPace::kEveryLayer}) {
        for (int64_t rows : {1, 2, 4, 8, 16}) {
          if (rows * 2 > chain.back().output_rows) break;
          candidates.push_back(candidate(first, last, chain, rows, pace));
        }
      }
    }
  }
  return candidates;
}

bool in_line_buffer(const CompiledModel& model, int tensor_id) {
  const int storage = model.graph.storage_of(tensor_id);
  for (const FusedChain& c : model.chains) {
    for (int step = c.first_step; step < c.last_step; ++step) {
      if (model.graph.storage_of(model.graph.ops[step].outputs[0]) == storage) return true;
    }
  }
  return false;
}

int band_step(const std::vector<FusedChain>& chains, int step) {
  for (const FusedChain& c : chains) {
    if (c.contains(step)) return c.first_step;
  }
  return step;
}

std::vector<BufferRecord> banded_records(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                                         const std::vector<FusedChain>& chains) {
  std::vector<ChainSpan> spans;
  for (const FusedChain& c : chains) spans.push_back(span_of(model, c));
  return band_records(tensors, spans);
}

bool chain_permit(const CompiledModel& model, const std::vector<BufferRecord>& records, const FusedChain& c,
                  OverlapPermit& permit) {
  const Graph& g = model.graph;
  const int in_storage = g.storage_of(g.ops[c.first_step].inputs[0]);
  const int out_storage = g.storage_of(g.ops[c.last_step].outputs[0]);
  size_t in = records.size(), out = records.size();
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].kind != BufferKind::kTensor) continue;
    if (records[i].tensor_id == in_storage) in = i;
    if (records[i].tensor_id == out_storage) out = i;
  }
  if (in == records.size() || out == records.size() || in == out) return false;
  if (records[in].last_op != c.first_step || records[out].first_op != c.first_step) return false;
  const auto is_it = [&](int id) { return g.storage_of(id) == in_storage; };
  if (std::any_of(g.outputs.begin(), g.outputs.end(), is_it)) return false;
  permit = OverlapPermit{out, in, c.output_shift};
  return true;
}

int64_t banded_bound(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                     const std::vector<FusedChain>& chains) {
  const std::vector<int64_t> live = live_per_step(model, banded_records(model, tensors, chains), chains);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

int64_t base_instructions(const CompiledModel& model) {
  int64_t total = 0;
  for (int64_t macs : model.macs) total += macs;
  return std::max<int64_t>(total, 1);
}

std::vector<VariantSwitch> variant_switches(const CompiledModel& model) {
  std::vector<VariantSwitch> switches;
  const std::vector<KernelVariant>& now = model.planned_variants;
  const std::vector<KernelVariant>& untiled = model.untiled_variants;
  for (size_t step = 0; step < now.size() && step < untiled.size(); ++step) {
    const auto in_chain = [&](const FusedChain& c) { return c.contains(static_cast<int>(step)); };
    // Inside a chain no step runs an in-place variant: the chain's estimate credits the untiled one's.
    VariantSwitch v;
    if (now[step] == untiled[step] || std::any_of(model.chains.begin(), model.chains.end(), in_chain) ||
        !priced_family(model, step, v.family)) {
      continue;
    }
    v.step = static_cast<int>(step);
    v.input_bytes = model.graph.tensor(model.graph.ops[step].inputs[0]).byte_size();
    v.to_in_place = now[step] != KernelVariant::kPlain;
    const int64_t cost = in_place_variant_cost(v.input_bytes, band_cost_constants(v.family));
    v.estimated = v.to_in_place ? cost : -cost;
    switches.push_back(v);
  }
  return switches;
}

int64_t estimated_extra_instructions(const CompiledModel& model) {
  int64_t total = 0;
  for (const FusedChain& c : model.chains) total += c.extra_instructions;
  for (const VariantSwitch& v : variant_switches(model)) total += v.estimated;
  return total;
}

std::vector<FusedChain> choose_bands(const CompiledModel& model, const std::vector<BufferRecord>& tensors,
                                     const std::vector<FusedChain>& candidates, int64_t max_extra,
                                     int64_t target_bytes) {
  BandChoiceRequest request;
  request.live = live_per_step(model, tensors, {});
  request.max_extra = max_extra;
  request.target_bytes = target_bytes;
  for (const FusedChain& c : candidates) {
    ChainSpan span = span_of(model, c);
    span.overlap_bytes = overlap_of(model, band_records(tensors, {span}), c);
    request.options.push_back({c.first_step, c.last_step, c.band_rows, static_cast<int>(c.pace),
                               c.extra_instructions, span_delta(tensors, span)});
  }
  std::vector<FusedChain> chains;
  for (int i : choose_chains(request).options) {
    chains.push_back(candidates[static_cast<size_t>(i)]);
    FusedChain& c = chains.back();
    c.schedule = schedule_bands(c.layers, c.band_rows, c.pace);  // with its actions
  }
  return chains;
}

}  // namespace microaot
