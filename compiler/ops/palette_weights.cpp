#include "ops/palette_weights.h"

#include <algorithm>
#include <cstring>

#include "microaot/internal/palette.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

size_t row_bytes(int32_t n, int bits) { return microaot_palette_row_bytes(static_cast<size_t>(n), bits); }

// Row c's distinct values, ascending.
std::vector<int8_t> distinct_values(const std::vector<int8_t>& rows, int32_t c, int32_t n) {
  const auto begin = rows.begin() + static_cast<std::ptrdiff_t>(c) * n;
  std::vector<int8_t> values(begin, begin + n);
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

int palette_bits(const std::vector<int8_t>& rows, int32_t channels, int32_t n) {
  size_t most = 1;
  for (int32_t c = 0; c < channels; ++c) most = std::max(most, distinct_values(rows, c, n).size());
  int bits = 1;
  while ((size_t{1} << bits) < most) ++bits;
  return bits;
}

Palette make_palette(const std::vector<int8_t>& rows, int32_t channels, int32_t n, int bits) {
  MICROAOT_CHECK(bits >= 1 && bits <= MICROAOT_PALETTE_MAX_BITS && rows.size() == size_t(channels) * size_t(n),
                 "palette of " + std::to_string(bits) + " bits");
  Palette p;
  p.bits = bits;
  const size_t entries = size_t{1} << bits;
  p.table.assign(static_cast<size_t>(channels) * entries, 0);
  p.indices.assign(1 + static_cast<size_t>(channels) * row_bytes(n, bits), 0);
  p.indices[0] = static_cast<uint8_t>(bits);
  for (int32_t c = 0; c < channels; ++c) {
    const std::vector<int8_t> values = distinct_values(rows, c, n);
    MICROAOT_CHECK(values.size() <= entries, "channel " + std::to_string(c) + " has more values than the palette");
    std::copy(values.begin(), values.end(), p.table.begin() + static_cast<std::ptrdiff_t>(c * entries));
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

bool use_palette_weights(const Target& target, KernelCall& call, const Tensor& weights, const std::vector<int8_t>& rows,
                         int32_t channels, int32_t n, const std::string& palette_stem) {
  if (target.compress_bits == 0 || rows.empty()) return false;
  const int bits = palette_bits(rows, channels, n);
  if (bits > target.compress_bits) return false;
  Palette palette = make_palette(rows, channels, n, bits);
  const int64_t before = static_cast<int64_t>(rows.size());
  if (palette.bytes() >= before) return false;
  const int64_t indices = static_cast<int64_t>(palette.indices.size());
  const int64_t tables = static_cast<int64_t>(palette.table.size());
  call.derived.push_back(byte_constant(weights.name + "_palette_indices", DType::kUInt8, palette.indices));
  call.derived.push_back(byte_constant(weights.name + "_palette_table", DType::kInt8, palette.table));
  call.args.insert(call.args.begin() + 1, derived_arg(0));
  call.args[2] = derived_arg(1);
  call.stem = palette_stem;
  call.scratch_bytes = n;
  call.specialisation = "palettised weights: " + std::to_string(bits) + "-bit indices and " +
                        std::to_string(1 << bits) + " values per channel, int8 " + with_commas(before) + " B -> " +
                        with_commas(indices) + " + " + with_commas(tables) + " B (" +
                        std::to_string((100 * (indices + tables) + before / 2) / before) +
                        "%), each channel's " + std::to_string(n) + " weights decoded into the scratch";
  return true;
}

PaletteFacts palette_facts(const Graph& graph, const KernelCall& call) {
  const std::string suffix = "_palette";
  const bool palette = call.stem.size() > suffix.size() &&
                       call.stem.compare(call.stem.size() - suffix.size(), suffix.size(), suffix) == 0;
  if (!palette || call.args.size() < 3 || call.args[1] < 0 || call.args[2] < 0) return {};
  const Tensor& indices = graph.tensor(call.args[1]);
  const Tensor& table = graph.tensor(call.args[2]);
  if (indices.data.empty()) return {};
  const int bits = indices.data[0];
  return {bits, (table.byte_size() >> bits) * call.scratch_bytes, indices.byte_size() + table.byte_size()};
}

}  // namespace microaot
