// Palettised weights (issue 32, --compress-weights): an int8 CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED whose
// weights take at most 2^bits values in each output channel keeps, in flash, each weight's index into its
// channel's table (bits of it, packed) and the tables, which the _palette kernels decode one channel at a time
// into a scratch of one filter's bytes (runtime microaot/internal/palette.h has the layout). Exact: the kernel
// multiplies the very int8 values the model holds. A layer takes them when the target's setting allows that
// many bits and the indices and tables are smaller than the int8 weights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"
#include "target/target.h"

namespace microaot {

// `channels` rows of `n` int8 weights as packed indices and tables (the kernels' layout).
struct Palette {
  int bits = 0;
  bool shared = false;           // one table for every channel (MICROAOT_PALETTE_SHARED)
  std::vector<uint8_t> indices;  // byte 0: bits (| the shared flag); then one row of n indices per channel
  std::vector<int8_t> table;     // 2^bits values per channel (or in all when shared), ascending, zero-padded
  int64_t bytes() const { return static_cast<int64_t>(indices.size() + table.size()); }
};

// The fewest bits (at least 1) whose 2^bits values hold every channel's distinct weights (shared: the distinct
// weights of all channels together).
int palette_bits(const std::vector<int8_t>& rows, int32_t channels, int32_t n, bool shared = false);

// The palette of `rows` (channels x n, row-major) at `bits` >= palette_bits(rows, channels, n, shared).
Palette make_palette(const std::vector<int8_t>& rows, int32_t channels, int32_t n, int bits, bool shared = false);

// The bytes of a palette (indices and tables) without building it.
int64_t palette_bytes(int32_t channels, int32_t n, int bits, bool shared);

// The smallest exact palette of `rows` whose bits are at most max_bits: per-channel tables or one shared table,
// whichever has fewer bytes (per-channel on a tie); bits 0 when neither fits max_bits.
Palette smallest_palette(const std::vector<int8_t>& rows, int32_t channels, int32_t n, int max_bits);

// The weights a palette holds, decoded as the kernels decode them (channels x n): the tests' oracle.
std::vector<int8_t> decode_palette(const Palette& palette, int32_t channels, int32_t n);

// A DEPTHWISE_CONV_2D filter [1, taps, channels] as one row of taps per channel, the palette's rows.
std::vector<int8_t> depthwise_channel_rows(const std::vector<int8_t>& filter, int32_t taps, int32_t channels);

// Turns `call` (lowered for a portable int8 stem: weights in args[1], optional bias in args[2]) into a call of
// `palette_stem` over the palette of `rows` (the weights as channels x n) with a scratch of n bytes, and states
// the format and bytes in call.specialisation; false, `call` unchanged, when the target's --compress-weights
// does not allow the palette's bits or the palette is not smaller than the weights.
bool use_palette_weights(const Target& target, KernelCall& call, const Tensor& weights, const std::vector<int8_t>& rows,
                         int32_t channels, int32_t n, const std::string& palette_stem);

// What a bound call (its derived constants in the graph) over palettised weights holds, for the reports: bits 0
// for any other call.
struct PaletteFacts {
  int bits = 0;
  bool shared = false;     // one table for every channel
  int64_t int8_bytes = 0;  // the weights as the model holds them
  int64_t bytes = 0;       // indices and tables
};
PaletteFacts palette_facts(const Graph& graph, const KernelCall& call);

}  // namespace microaot
