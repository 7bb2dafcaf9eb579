#include "ops/palette_weights.h"

#include <algorithm>
#include <cstring>

#include "microaot/internal/palette.h"
#include "microaot/kernels/conv.h"
#include "microaot/kernels/packed.h"
#include "ops/packed_weights.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

size_t row_bytes(int32_t n, int bits) { return microaot_palette_row_bytes(static_cast<size_t>(n), bits); }

// Row c's distinct values, ascending (shared: every row's).
std::vector<int8_t> distinct_values(const std::vector<int8_t>& rows, int32_t c, int32_t n, bool shared = false) {
  const auto begin = shared ? rows.begin() : rows.begin() + static_cast<std::ptrdiff_t>(c) * n;
  std::vector<int8_t> values(begin, shared ? rows.end() : begin + n);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

template <typename T>
Tensor byte_constant(const std::string& name, DType dtype, const std::vector<T>& values) {
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = {static_cast<int32_t>(values.size())};
  t.is_constant = true;
  t.data.resize(values.size());
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), values.size());
  return t;
}

std::string with_commas(int64_t v) {
  std::string digits = std::to_string(v);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(static_cast<size_t>(at), ",");
  return digits;
}

}  // namespace

int palette_bits(const std::vector<int8_t>& rows, int32_t channels, int32_t n, bool shared) {
  size_t most = 1;
  for (int32_t c = 0; c < (shared ? 1 : channels); ++c) most = std::max(most, distinct_values(rows, c, n, shared).size());
  int bits = 1;
  while ((size_t{1} << bits) < most) ++bits;
  return bits;
}

int64_t palette_bytes(int32_t channels, int32_t n, int bits, bool shared) {
  const int64_t tables = (shared ? 1 : int64_t{channels}) << bits;
  return 1 + int64_t{channels} * static_cast<int64_t>(row_bytes(n, bits)) + tables;
}

Palette make_palette(const std::vector<int8_t>& rows, int32_t channels, int32_t n, int bits, bool shared) {
  MICROAOT_CHECK(bits >= 1 && bits <= MICROAOT_PALETTE_MAX_BITS && rows.size() == size_t(channels) * size_t(n),
                 "palette of " + std::to_string(bits) + " bits");
  Palette p;
  p.bits = bits;
  p.shared = shared;
  const size_t entries = size_t{1} << bits;
  p.table.assign((shared ? 1 : static_cast<size_t>(channels)) * entries, 0);
  p.indices.assign(1 + static_cast<size_t>(channels) * row_bytes(n, bits), 0);
  p.indices[0] = static_cast<uint8_t>(bits | (shared ? MICROAOT_PALETTE_SHARED : 0u));
  const std::vector<int8_t> all = shared ? distinct_values(rows, 0, n, true) : std::vector<int8_t>{};
  if (shared) MICROAOT_CHECK(all.size() <= entries, "the weights have more values than the shared palette");
  if (shared) std::copy(all.begin(), all.end(), p.table.begin());
  for (int32_t c = 0; c < channels; ++c) {
    const std::vector<int8_t> values = shared ? all : distinct_values(rows, c, n);
    MICROAOT_CHECK(values.size() <= entries, "channel " + std::to_string(c) + " has more values than the palette");
    if (!shared) std::copy(values.begin(), values.end(), p.table.begin() + static_cast<std::ptrdiff_t>(c * entries));
    uint8_t* row = &p.indices[1 + static_cast<size_t>(c) * row_bytes(n, bits)];
    for (int32_t i = 0; i < n; ++i) {
      const int8_t w = rows[static_cast<size_t>(c) * static_cast<size_t>(n) + static_cast<size_t>(i)];
      const auto index = static_cast<uint32_t>(std::lower_bound(values.begin(), values.end(), w) - values.begin());
      const size_t bit = static_cast<size_t>(i) * static_cast<size_t>(bits);
      row[bit / 8] = static_cast<uint8_t>(row[bit / 8] | (index << (bit % 8)));
      if (bit % 8 + static_cast<size_t>(bits) > 8) row[bit / 8 + 1] = static_cast<uint8_t>(index >> (8 - bit % 8));
    }
  }
  return p;
}

Palette smallest_palette(const std::vector<int8_t>& rows, int32_t channels, int32_t n, int max_bits) {
  const int own = palette_bits(rows, channels, n), one = palette_bits(rows, channels, n, true);
  const bool own_fits = own <= max_bits, one_fits = one <= max_bits;
  if (!own_fits && !one_fits) return {};
  const bool shared = !own_fits || (one_fits && palette_bytes(channels, n, one, true) < palette_bytes(channels, n, own, false));
  return make_palette(rows, channels, n, shared ? one : own, shared);
}

std::vector<int8_t> decode_palette(const Palette& palette, int32_t channels, int32_t n) {
  std::vector<int8_t> rows(static_cast<size_t>(channels) * static_cast<size_t>(n));
  for (int32_t c = 0; c < channels; ++c) {
    microaot_palette_decode(palette.indices.data(), palette.bits, palette.table.data(), static_cast<size_t>(c),
                            static_cast<size_t>(n), rows.data() + static_cast<size_t>(c) * static_cast<size_t>(n));
  }
  return rows;
}

std::vector<int8_t> depthwise_channel_rows(const std::vector<int8_t>& filter, int32_t taps, int32_t channels) {
  std::vector<int8_t> rows(filter.size());
  for (int32_t t = 0; t < taps; ++t) {
    for (int32_t c = 0; c < channels; ++c) {
      rows[static_cast<size_t>(c) * static_cast<size_t>(taps) + static_cast<size_t>(t)] =
          filter[static_cast<size_t>(t) * static_cast<size_t>(channels) + static_cast<size_t>(c)];
    }
  }
  return rows;
}

namespace {

// The palette --compress-weights allows for `rows` (channels x n), smaller than the int8 weights; bits 0: none.
// TFLM's compressed weights (Tensor::lut_bits) keep a palette of at most their own width unless
// --compress-weights off.
Palette allowed_palette(const Target& target, const Tensor& weights, const std::vector<int8_t>& rows,
                        int32_t channels, int32_t n) {
  const int max_bits = weights.lut_bits > 0 && !target.compress_off_asked
                           ? std::max(target.compress_bits, weights.lut_bits)
                           : target.compress_bits;
  if (max_bits == 0 || rows.empty()) return {};
  Palette palette = smallest_palette(rows, channels, n, max_bits);
  return palette.bits != 0 && palette.bytes() < static_cast<int64_t>(rows.size()) ? palette : Palette{};
}

// The palette's indices and table as derived constants 0 and 1, in args[1] and args[2] (after the input).
void add_palette(KernelCall& call, const Tensor& weights, const Palette& palette) {
  call.derived.push_back(byte_constant(weights.name + "_palette_indices", DType::kUInt8, palette.indices));
  call.derived.push_back(byte_constant(weights.name + "_palette_table", DType::kInt8, palette.table));
  call.args.insert(call.args.begin() + 1, derived_arg(0));
  call.args[2] = derived_arg(1);
}

std::string palette_text(const Palette& palette, int64_t before) {
  const int64_t indices = static_cast<int64_t>(palette.indices.size());
  const int64_t tables = static_cast<int64_t>(palette.table.size());
  return "palettised weights: " + std::to_string(palette.bits) + "-bit indices and " +
         std::to_string(1 << palette.bits) +
         (palette.shared ? " values in one table for all channels" : " values per channel") + ", int8 " + with_commas(before) + " B -> " +
         with_commas(indices) + " + " + with_commas(tables) + " B (" +
         std::to_string((100 * (indices + tables) + before / 2) / before) + "%)";
}

}  // namespace

bool use_palette_weights(const Target& target, KernelCall& call, const Tensor& weights, const std::vector<int8_t>& rows,
                         int32_t channels, int32_t n, const std::string& palette_stem) {
  // Only the DSP palette kernel takes a layer at the fast-only default; a TFLM-compressed model keeps its palettes.
  if (target.compress_fast_only && weights.lut_bits == 0) return false;
  const Palette palette = allowed_palette(target, weights, rows, channels, n);
  if (palette.bits == 0) return false;
  add_palette(call, weights, palette);
  call.stem = palette_stem;
  call.scratch_bytes = n;
  call.specialisation = palette_text(palette, static_cast<int64_t>(rows.size())) + ", each channel's " +
                        std::to_string(n) + " weights decoded into the scratch";
  return true;
}

int64_t packed_palette_extra(int bits, int64_t pixels, int32_t units, int32_t depth, int64_t decodes) {
  const int64_t decode = bits == 2 || bits == 4 ? kPaletteDecodeCostWhole : bits == 3 ? kPaletteDecodeCost3
                                                                                     : kPaletteDecodeCostOther;
  return decode * units * depth * decodes + kPalettePixelQuadCost * pixels * ((units + 3) / 4) +
         pixels * units * depth * kPaletteMacCostPercent / 100;
}

bool packed_palette_pays(int bits, int64_t pixels, int32_t units, int32_t depth, int64_t decodes) {
  return packed_palette_extra(bits, pixels, units, depth, decodes) * 100 <= kPaletteMaxExtraPercent * pixels * units * depth;
}

namespace {

// Whether no op but `op` reads its input and it is not a graph output: the memory plan may then write the
// output over it, through the kernel's overlap flavor.
bool input_dies_at(const Graph& graph, const Op& op) {
  const int storage = graph.storage_of(op.inputs[0]);
  const auto reads = [&](const std::vector<int>& ids) {
    return std::any_of(ids.begin(), ids.end(), [&](int id) { return id != kNoTensor && graph.storage_of(id) == storage; });
  };
  if (reads(graph.outputs)) return false;
  return std::none_of(graph.ops.begin(), graph.ops.end(),
                      [&](const Op& other) { return other.outputs != op.outputs && reads(other.inputs); });
}

// The times the 1x1 DSP palette kernel decodes the weights of `call` (lowered for conv_2d_s8): once, or where the
// plan may run the layer in place, once per chunk of its overlap flavor (microaot_packed_palette_overlap_rows).
int64_t packed_palette_decodes(const Graph& graph, const Op& op, const KernelCall& call) {
  if (!input_dies_at(graph, op)) return 1;
  KernelCall palette = call;
  palette.stem = kPackedPaletteStem;
  const ParamValue* height = call.params.find("output_height");
  const int64_t rows = height != nullptr ? height->integer : 1, chunk = overlap_chunk_rows(palette);
  return (rows + chunk - 1) / chunk;
}

// Whether the DSP palette kernel must pay against the packed kernel: at the default, where the alternative is the
// packed int8 weights. A palette asked for (--compress-weights, or TFLM's) takes it wherever it fits: any palette
// kernel of the layer is slower, the portable ones about 9x the packed kernels.
bool must_pay(const Target& target, const Tensor& weights) {
  return target.compress_fast_only && weights.lut_bits == 0;
}

// `call` over `palette` through a DSP palette kernel `stem`: the output step's table of `packed` (the packed
// kernel's call of the layer, its sums not the raw form's), the params as packed's.
void take_packed_palette(KernelCall& call, const KernelCall& packed, const Tensor& weights, const Palette& palette,
                         const char* stem, int64_t scratch, int64_t int8_bytes, const std::string& how) {
  const Tensor step = packed.derived[1];
  call = packed;
  call.derived.clear();
  call.args[1] = call.args[2] = kNoTensor;
  add_palette(call, weights, palette);
  call.derived.push_back(step);
  call.args[3] = derived_arg(2);
  call.stem = stem;
  call.scratch_bytes = scratch;
  call.specialisation = palette_text(palette, int8_bytes) + how + "; output step one SMMLAR per value";
}

}  // namespace

bool use_packed_palette_weights(const Graph& graph, const Op& op, const Target& target, KernelCall& call,
                                const Tensor& weights, int32_t units, int32_t depth, int64_t pixels) {
  if (!target.kernels_use_dsp() || !MICROAOT_PACKED_PALETTE_FITS(depth) ||
      !packed_refusal(target, units, 0, kPackedMinUnits).empty()) {
    return false;
  }
  const std::vector<int8_t> rows = constant_values<int8_t>(weights);
  const Palette palette = allowed_palette(target, weights, rows, units, depth);
  if (palette.bits == 0 || (must_pay(target, weights) &&
                            !packed_palette_pays(palette.bits, pixels, units, depth,
                                                 packed_palette_decodes(graph, op, call)))) {
    return false;
  }
  KernelCall packed = call;
  if (!use_packed_weights(graph, target, packed, "conv_2d_s8_packed", units, depth, false)) return false;
  take_packed_palette(call, packed, weights, palette, kPackedPaletteStem,
                      MICROAOT_PACKED_PALETTE_BLOCK_BYTES(int64_t{depth}), static_cast<int64_t>(rows.size()),
                      ", 4 channels at a time decoded to int16 for SMLAD, every pixel read in place");
  return true;
}

bool use_packed_kxk_palette_weights(const Graph& graph, const Target& target, KernelCall& call, const Tensor& weights,
                                    int32_t units, int32_t window) {
  // Never at the default: its scratch (a block of up to 10 KB) and code would cost the RAM and flash the default
  // keeps, and in fused bands it decodes once per band.
  if (must_pay(target, weights) || !target.kernels_use_dsp() || !MICROAOT_PACKED_KXK_PALETTE_FITS(window) ||
      !packed_refusal(target, units, 0, kPackedMinUnits).empty()) {
    return false;
  }
  const std::vector<int8_t> rows = constant_values<int8_t>(weights);
  const Palette palette = allowed_palette(target, weights, rows, units, window);
  if (palette.bits == 0) return false;
  KernelCall packed = call;
  if (!use_packed_window_weights(graph, target, packed, "conv_2d_s8_packed_kxk", units, window, false)) return false;
  take_packed_palette(call, packed, weights, palette, kPackedKxkPaletteStem,
                      MICROAOT_PACKED_KXK_PALETTE_BYTES(window, units), static_cast<int64_t>(rows.size()),
                      ", " + std::to_string(microaot_packed_kxk_palette_units(window, units)) +
                          " channels' windows at a time decoded to int16, two pixels' windows gathered and widened "
                          "against them (padding = input zero point)");
  return true;
}

namespace {

int64_t activation_bytes(const Graph& graph, const Op& op) {
  int64_t bytes = 0;
  for (const std::vector<int>* ids : {&op.inputs, &op.outputs}) {
    for (int id : *ids) {
      if (id != kNoTensor && !graph.tensor(id).is_constant) bytes += graph.tensor(id).byte_size();
    }
  }
  return bytes;
}

}  // namespace

bool fits_under_busiest_op(const Graph& graph, const Op& op, int64_t scratch) {
  int64_t busiest = 0;
  for (const Op& other : graph.ops) busiest = std::max(busiest, activation_bytes(graph, other));
  return activation_bytes(graph, op) + scratch <= busiest;
}

bool use_pointwise_kxk_palette_weights(const Graph& graph, const Op& op, const Target& target, KernelCall& call,
                                       const Tensor& weights, int32_t units, int32_t depth) {
  if (depth < kPointwiseKxkPaletteMinDepth || !MICROAOT_PACKED_KXK_PALETTE_FITS(depth) ||
      !fits_under_busiest_op(graph, op, MICROAOT_PACKED_KXK_PALETTE_BYTES(int64_t{depth}, units))) {
    return false;
  }
  return use_packed_kxk_palette_weights(graph, target, call, weights, units, depth);
}

std::string packed_kxk_palette_refusal(const Target& target, int32_t units, int64_t window, bool grouped) {
  if (grouped) return "a grouped filter";
  if (!MICROAOT_PACKED_KXK_PALETTE_FITS(window)) {
    return "a window of " + std::to_string(window) + " elements, past the " +
           std::to_string(MICROAOT_PACKED_KXK_PALETTE_MAX_WINDOW) + " it gathers in one chunk";
  }
  const std::string packed = packed_refusal(target, units, 0, kPackedMinUnits);
  return packed.empty() ? "" : packed.substr(packed.find(": ") + 2);
}

bool use_widened_palette_weights(const Target& target, KernelCall& call, const Tensor& weights,
                                 const std::vector<int8_t>& rows, int32_t channels, int32_t taps, bool ring_only) {
  if (must_pay(target, weights) || !target.kernels_use_dsp()) return false;
  const Palette palette = allowed_palette(target, weights, rows, channels, taps);
  if (palette.bits == 0) return false;
  add_palette(call, weights, palette);
  call.stem = ring_only ? kRingPaletteStem : kWidenedPaletteStem;
  call.scratch_bytes = MICROAOT_DEPTHWISE_PALETTE_BLOCK_BYTES;
  call.specialisation = palette_text(palette, static_cast<int64_t>(rows.size())) +
                        ", 4 channels' taps decoded once per call, then the DSP depthwise kernel's rows (the widened "
                        "ring at stride 1, else unrolled 3x3 windows); output step one SMMLAR per value";
  return true;
}

bool use_fc_palette_pairs(const Target& target, KernelCall& call, int32_t depth) {
  if (!target.kernels_use_dsp() || call.derived.empty() || call.derived[0].data.empty()) return false;
  const uint8_t header = call.derived[0].data[0];
  const bool shared = (header & MICROAOT_PALETTE_SHARED) != 0;
  if (microaot_palette_bits(&header) != 4 || (!shared && depth < kFcPalettePairsMinDepth)) return false;
  const std::string& text = call.specialisation;
  call.stem = kFcPalettePairsStem;
  call.scratch_bytes = MICROAOT_FC_PALETTE_PAIRS_BYTES(int64_t{depth});
  call.specialisation = text.substr(0, text.find(", each channel's")) +
                        ", index bytes read through a table of their weight pairs for SMLAD (" +
                        (shared ? "built once" : "built per channel") + ")";
  return true;
}

namespace {

// A CONV_2D call's window (filter height x width x depth), from its params.
int64_t conv_window_of(const KernelCall& call) {
  int64_t window = 1;
  for (const char* field : {"filter_height", "filter_width", "filter_depth"}) {
    const ParamValue* value = call.params.find(field);
    window *= value != nullptr ? value->integer : 0;
  }
  return window;
}

int64_t fc_depth(const KernelCall& call) {
  const ParamValue* depth = call.params.find("input_depth");
  return depth != nullptr ? depth->integer : 0;
}

// Both builds of the DSP depthwise palette kernel.
bool depthwise_palette_stem(const std::string& stem) { return stem == kWidenedPaletteStem || stem == kRingPaletteStem; }

// The elements of one row of a palette kernel's indices.
int64_t palette_row_elements(const KernelCall& call) {
  if (call.stem == kPackedPaletteStem) return call.scratch_bytes / MICROAOT_PACKED_PALETTE_BLOCK_BYTES(1);
  if (call.stem == kPackedKxkPaletteStem) return conv_window_of(call);
  if (depthwise_palette_stem(call.stem)) return 9;  // a 3x3 filter's taps
  if (call.stem == kFcPalettePairsStem) return fc_depth(call);
  return call.scratch_bytes;
}

}  // namespace

int64_t palette_decode_per_call(const Graph& graph, const KernelCall& call) {
  if (call.stem != kPackedPaletteStem && call.stem != kPackedKxkPaletteStem && !depthwise_palette_stem(call.stem)) {
    return 0;
  }
  const PaletteFacts facts = palette_facts(graph, call);
  const int64_t per_weight = facts.bits == 2 || facts.bits == 4 ? kPaletteDecodeCostWhole
                             : facts.bits == 3                  ? kPaletteDecodeCost3
                                                                : kPaletteDecodeCostOther;
  return per_weight * facts.int8_bytes;
}

int64_t overlap_chunk_rows(const KernelCall& call) {
  const auto field = [&](const char* name) {
    const ParamValue* v = call.params.find(name);
    return static_cast<int32_t>(v != nullptr ? v->integer : 0);
  };
  if (depthwise_palette_stem(call.stem)) {
    return microaot_palette_chunk_rows(field("output_width"), field("output_height"), 0);
  }
  if (call.stem != kPackedPaletteStem && call.stem != kPackedKxkPaletteStem) return 1;
  const microaot_conv_2d_params_q p = conv_geometry_params(call);
  return call.stem == kPackedPaletteStem ? microaot_packed_palette_overlap_rows(&p)
                                         : microaot_packed_kxk_palette_overlap_rows(&p);
}

PaletteFacts palette_facts(const Graph& graph, const KernelCall& call) {
  const std::string suffix = "_palette";
  const bool palette = call.stem.size() > suffix.size() &&
                       call.stem.compare(call.stem.size() - suffix.size(), suffix.size(), suffix) == 0;
  if (!palette || call.args.size() < 3 || call.args[1] < 0 || call.args[2] < 0) return {};
  const Tensor& indices = graph.tensor(call.args[1]);
  const Tensor& table = graph.tensor(call.args[2]);
  if (indices.data.empty()) return {};
  const int bits = microaot_palette_bits(indices.data.data());
  if (bits == 0 || call.scratch_bytes <= 0) return {};
  const bool shared = (indices.data[0] & MICROAOT_PALETTE_SHARED) != 0;
  const int64_t n = palette_row_elements(call);
  const int64_t rows = (indices.byte_size() - 1) / static_cast<int64_t>(row_bytes(static_cast<int32_t>(n), bits));
  return {bits, shared, rows * n, indices.byte_size() + table.byte_size()};
}

}  // namespace microaot
