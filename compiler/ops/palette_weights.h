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
// does not allow the palette's bits, the palette is not smaller than the weights, or the target takes palettes
// only through the DSP kernel (compress_fast_only).
bool use_palette_weights(const Target& target, KernelCall& call, const Tensor& weights, const std::vector<int8_t>& rows,
                         int32_t channels, int32_t n, const std::string& palette_stem);

// The DSP palette kernel (runtime microaot/kernels/packed.h, microaot_conv_2d_s8_packed_palette): a 1x1 CONV_2D
// of `units` rows of `depth` weights over `pixels` output pixels, on a DSP target, where the packed kernel takes
// the layer. The instructions it adds to the packed raw-form kernel's (balanced; Cortex-M4, bench per_op,
// clustered KWS and IC: fitted on 64->64 over 125 pixels, 1.137x, and 32->64 over 64 pixels, 1.198x): its
// decode, once per call (about 4 per weight at 2 and 4 bits, 9 at 3, 12 at others), its output step and call,
// one pixel against four channels (about 19 per pixel and quad), and about 5% of the MACs (the raw form's
// loop is the tighter). At the default it pays when that is at most kPaletteMaxExtraPercent of the layer's
// MACs (the raw form runs 1.14-1.32 instructions per MAC, so at most about 1.15x the layer's instructions).
inline const char* const kPackedPaletteStem = "conv_2d_s8_packed_palette";
constexpr int64_t kPaletteDecodeCostWhole = 4, kPaletteDecodeCost3 = 9, kPaletteDecodeCostOther = 12;
constexpr int64_t kPalettePixelQuadCost = 19, kPaletteMacCostPercent = 5, kPaletteMaxExtraPercent = 17;
// `decodes`: the times a call decodes the weights (its overlap flavor once per chunk of rows).
int64_t packed_palette_extra(int bits, int64_t pixels, int32_t units, int32_t depth, int64_t decodes = 1);
bool packed_palette_pays(int bits, int64_t pixels, int32_t units, int32_t depth, int64_t decodes = 1);

// The k x k DSP palette kernel (microaot_conv_2d_s8_packed_kxk_palette): a block of channels decoded, then the
// packed k x k kernel's gathered and widened windows against it in the _w16 row loops. Against the packed k x k
// raw-form kernel (Cortex-M4, bench per_op, clustered IC): 0.88-1.005x at 3 to 32 input channels, 1.14-1.32x at 64
// (each window is widened once per block of 8 channels there). Only a palette asked for
// (--compress-weights, or TFLM's) takes it, instead of the portable palette kernel (about 9-11x).
inline const char* const kPackedKxkPaletteStem = "conv_2d_s8_packed_kxk_palette";

// Turns `call` (lowered for conv_2d_s8, a 1x1 filter without padding) into a call of the DSP palette kernel over
// the palette of `weights` and the packed kernels' output step's table, when --compress-weights allows the
// palette, it is smaller than the weights, the packed kernel takes the layer and (at the fast-only default) the
// decode pays, counted once per chunk of rows where the plan may write the output over the input (the overlap
// flavor); else false, `call` unchanged.
bool use_packed_palette_weights(const Graph& graph, const Op& op, const Target& target, KernelCall& call,
                                const Tensor& weights, int32_t units, int32_t depth, int64_t pixels);
// The same for a k x k CONV_2D (any window the packed k x k kernel takes) through the k x k DSP palette kernel,
// only where the palette is asked for (not the fast-only default).
bool use_packed_kxk_palette_weights(const Graph& graph, const Target& target, KernelCall& call, const Tensor& weights,
                                    int32_t units, int32_t window);

// A 1x1 CONV_2D where a palette is asked for, through the k x k DSP palette kernel instead of the 1x1 one: its
// _w16 rows run two pixels against two channels of a block of many channels (each pixel widened once per block),
// the 1x1 kernel one pixel against four (M4, clustered VWW, K = 16: 0.95-1.10x the packed kernel at 16-64 input
// channels over 36-576 pixels against 1.06-1.32x; 1.57-1.62x against 1.73x at 9 pixels; at 8 input channels
// the 1x1 kernel is the faster, 0.92x against 1.00x). Its block takes up to 10 KB of scratch, so only where that
// stays under the activation bytes of the model's busiest op (fits_under_busiest_op): the plan's peak is not
// raised there (VWW's and IC's small maps), where it would be (KWS: every 1x1 layer is its busiest) the 1x1
// kernel keeps its 8 bytes per input channel. False, `call` unchanged, where it does not take the layer.
constexpr int32_t kPointwiseKxkPaletteMinDepth = 16;
bool use_pointwise_kxk_palette_weights(const Graph& graph, const Op& op, const Target& target, KernelCall& call,
                                       const Tensor& weights, int32_t units, int32_t depth);
// Whether `scratch` bytes at `op` keep its activations (non-constant inputs and outputs) plus the scratch within
// those of the graph's busiest op.
bool fits_under_busiest_op(const Graph& graph, const Op& op, int64_t scratch);

// Why a k x k CONV_2D of `units` channels over windows of `window` elements (`grouped`: filter depth other than
// the input's) on a DSP target keeps the portable palette kernel (network_info.txt); empty where the k x k DSP
// palette kernel's own limits take it.
std::string packed_kxk_palette_refusal(const Target& target, int32_t units, int64_t window, bool grouped);

// The DSP depthwise palette kernel (runtime microaot/kernels/conv.h, microaot_depthwise_conv_2d_s8_widened_palette):
// a 3x3 DEPTHWISE_CONV_2D the DSP kernel computes through its widened weights (the caller checks
// microaot_fit_depthwise_widened_palette and the DSP bounds), each group of 4 channels decoded once per call and
// run by the DSP kernel's own rows. Taken only where a palette is asked for (--compress-weights, or TFLM's). A
// layer of microaot_fit_depthwise_ring_palette (`ring_only`) takes its ring-only build, which links no unrolled
// windows (depthwise_conv_2d_s8_ring_palette; folded into the full one where the model links that too).
inline const char* const kWidenedPaletteStem = "depthwise_conv_2d_s8_widened_palette";
inline const char* const kRingPaletteStem = "depthwise_conv_2d_s8_ring_palette";
bool use_widened_palette_weights(const Target& target, KernelCall& call, const Tensor& weights,
                                 const std::vector<int8_t>& rows, int32_t channels, int32_t taps, bool ring_only);

// The instructions a DSP palette kernel's call spends decoding its weights (they decode once per call; the
// portable ones once per output row): on row ranges (fused bands) each band's call decodes them again, which the
// band cost model counts (BandLayer::call_setup). 0 for any other call.
int64_t palette_decode_per_call(const Graph& graph, const KernelCall& call);
// The output rows a chunk of the DSP palette kernels' overlap flavors holds in the scratch (runtime
// microaot/kernels/packed.h, microaot_palette_overlap_rows: one where a single block holds every channel, else
// enough rows to repay a decode per chunk); 1 for any other call (one row, the row-wise overlap flavors').
int64_t overlap_chunk_rows(const KernelCall& call);
// The DSP FULLY_CONNECTED palette kernel (microaot_fully_connected_s8_packed_palette): 4-bit indices read a byte
// at a time through a table of the 256 bytes' weight pairs, about 2.3 instructions per MAC on the Cortex-M4
// against the packed raw form's 1.0-1.1 and the portable palette kernel's 12 (docs/palette-1x1-and-fc-m4.md:
// at one batch no palette kernel comes within 1.15x, so only a palette asked for takes it). A shared table's
// pairs are built once per call, a channel's own (256 words) once per channel: that pays from rows of
// kFcPalettePairsMinDepth weights.
inline const char* const kFcPalettePairsStem = "fully_connected_s8_packed_palette";
constexpr int32_t kFcPalettePairsMinDepth = 64;
// Turns `call`, which use_palette_weights made a call of fully_connected_s8_palette over rows of `depth`, into a
// call of the DSP kernel where the target has the DSP, the indices are 4-bit and the table is shared or the rows
// long enough; else false, `call` unchanged.
bool use_fc_palette_pairs(const Target& target, KernelCall& call, int32_t depth);

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
