// Compile-time specialisation of the int8 matrix products for the DSP extension: a 1x1 CONV_2D without
// padding and a FULLY_CONNECTED with symmetric weights (of at least kPackedMinUnits output channels, units),
// take the packed kernels (runtime microaot/kernels/packed.h), whose weights are re-laid out here for their
// inner loop (unit pairs, groups of four elements, as int32 words) and whose output step, proven exact here,
// is a table holding the bias with the input zero point folded in (a layer it cannot prove keeps the unpacked
// kernel). Both become derived constants of the call; the model's own weights stay untouched, so no other
// kernel reads the new layout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/kernel_call.h"
#include "microaot/kernels/conv.h"
#include "target/target.h"

namespace microaot {

// A derived constant (call.derived) of int32 values, shape [values.size()].
Tensor int32_constant(const std::string& name, const std::vector<int32_t>& values);

// The form of the packed words (microaot/packed_matmul.h): per unit and group of four elements one word of int8
// (--optimize balanced; the kernels widen it with SXTB16), or two of int16 lanes, elements (0, 2) then (1, 3)
// (--optimize speed, the _w16 kernels: twice the flash, no widening in the loop), or the raw form of the int8
// word (the _raw kernels: one SXTB16 per word, sums 256 times larger; microaot/internal/packed_dot.h), which
// use_packed_weights takes at kInt8 where raw_form_stage proves it.
enum class PackedWeights { kInt8, kInt16, kInt8Raw };

// The form a target's packed kernels take.
PackedWeights packed_weights_form(const Target& target);

// The words of the packed layout of `units` rows of `depth` int8 weights (row-major, TFLite's OHWI 1x1 or
// [units, depth]): chunk after chunk of the reduction (MICROAOT_PACKED_CHUNK_LENGTH(depth) elements, one chunk up to
// MICROAOT_PACKED_CHUNK), each chunk's words those of a row of its length.
std::vector<int32_t> pack_weight_words(const std::vector<int8_t>& weights, int32_t units, int32_t depth,
                                       PackedWeights form);

// The same words with every row whole, one chunk of `depth` elements however long (the recurrent kernels reduce a
// row in one pass, their scratch sized for it); the same as pack_weight_words up to MICROAOT_PACKED_CHUNK.
std::vector<int32_t> pack_whole_rows(const std::vector<int8_t>& weights, int32_t units, int32_t depth,
                                     PackedWeights form);

// bias[u] + input_offset * sum of row u's weights, wrapped to int32 as the kernel's sums wrap; bias empty:
// none (0).
std::vector<int32_t> fold_input_offset(const std::vector<int32_t>& bias, const std::vector<int8_t>& weights,
                                       int32_t units, int32_t depth, int32_t input_offset);

// A layer's requantization as the params hold it (per unit multiplier and shift), and its clamp.
struct PackedRequant {
  std::vector<int64_t> multiplier, shift;
  int64_t output_offset = 0, activation_min = -128, activation_max = 127;
};

// The table of the packed kernels' output step (MICROAOT_PACKED_STEP_WORDS per unit pair: each unit's folded bias,
// multiplier, rounding, right shift; one SMMLAR per value), which the kernels require, or empty when a unit is
// outside the range where that step is bit-exact with TFLM (a shift >= 0, sums that may reach 2^30, a rounding
// term beyond int32, unless the channel's output is one value whatever the input: then its words give that
// value): the layer then keeps the unpacked kernel.
// The output step's table (packed_output_stage's) for the raw form of the int8 words: each folded bias times 256
// plus 256 * 127 * the unit's weights at odd positions of their group (the rows' lanes x - 127 against them),
// wrapped to int32; empty when the form is not exact for the layer: a unit whose |sum| may reach 2^23 (256 times
// it would not fit int32) unless its multiplier is 0 (its output one value whatever the sum), a weight -128 at
// an odd position after a negative one (its byte would be -129). use_packed_weights takes it for layers of at least
// kPackedRawMinUnits units: against fewer, widening each row to the raw form's lanes (three instructions more per
// four elements) does not pay.
constexpr int32_t kPackedRawMinUnits = 8;
std::vector<int32_t> raw_form_stage(const std::vector<int32_t>& stage, const std::vector<int8_t>& weights,
                                    int32_t units, int32_t depth);
// The same for a kernel that takes a plain bias per unit (the LSTM's gates): each bias in the raw form, or empty
// where the form is not exact for a unit (no unit's sum is ignored).
std::vector<int32_t> raw_form_biases(const std::vector<int32_t>& bias, const std::vector<int8_t>& weights,
                                     int32_t units, int32_t depth);

std::vector<int32_t> packed_output_stage(const std::vector<int32_t>& folded_bias, const std::vector<int8_t>& weights,
                                         int32_t units, int32_t depth, const PackedRequant& requant);

// The scratch a packed kernel takes for rows of `depth` against `units` units (MICROAOT_PACKED_ROWS_BYTES): two
// widened rows of a chunk, and the sums between chunks when the rows are longer than one.
int64_t packed_rows_bytes(int32_t depth, int32_t units);

// Why the packed kernel does not take this product (empty when it does): no DSP extension, a weight zero point,
// or fewer than `min_units` units. A FULLY_CONNECTED takes kPackedMinUnits: against fewer, widening each input row
// to int16 does not pay (VWW's last: 2 units of depth 256; the unpacked DSP loop widens a row in registers). A
// convolution takes any count (kPackedConvMinUnits): its unpacked kernel costs 4 to 13 instructions per MAC for
// one to three output channels, the packed one half that. Any depth: a row longer than MICROAOT_PACKED_CHUNK is
// reduced in chunks, so that its scratch stays bounded (microaot/kernels/packed.h).
constexpr int32_t kPackedMinUnits = 4;
constexpr int32_t kPackedConvMinUnits = 1;
std::string packed_refusal(const Target& target, int32_t units, int64_t filter_offset, int32_t min_units);

// Turns `call` (lowered for the portable int8 stem, weights in args[1], optional bias in args[2], input_offset
// set) into a call of `packed_stem` (its _w16 twin for int16 weights) over derived constants (packed weights
// in the target's form, the output step's table with the folded bias) with the scratch for rows of `depth`,
// and states it in call.specialisation. False, with `call` unchanged but for kOutsideStepRange in call.specialisation,
// when packed_output_stage gives no table: the layer keeps its unpacked stem. raw_allowed false: never the raw
// form (a caller whose kernel sums plain products reads the table).
extern const char* const kOutsideStepRange;
bool use_packed_weights(const Graph& graph, const Target& target, KernelCall& call, const std::string& packed_stem,
                        int32_t units, int32_t depth, bool raw_allowed = true);

// The scratch of the k x k kernel for pixel windows of `depth` (a 1x1 layer or a FULLY_CONNECTED it takes,
// MICROAOT_PACKED_PIXEL_ROWS_BYTES): three widened rows of a chunk, then the sums between chunks.
int64_t packed_pixel_rows_bytes(int32_t depth, int32_t units);

// The geometry fields of a convolution's call (MICROAOT_CONV_*_FIELDS) as the kernels' params struct, the rest
// zero: what the kernels' scratch rules read.
microaot_conv_2d_params_q conv_geometry_params(const KernelCall& call);

// As use_packed_weights for a k x k CONV_2D whose output pixels' windows (`window` = kh * kw * input depth
// elements, the filter's OHWI rows) are the rows of the product: input_offset stays, the padding taps' value
// (-input_offset) the kernel fills in, whose products the folded bias cancels; the scratch microaot_packed_kxk_bytes
// (the windows', then the padded rows of a few-channel layer). False as use_packed_weights.
bool use_packed_window_weights(const Graph& graph, const Target& target, KernelCall& call,
                               const std::string& packed_stem, int32_t units, int32_t window, bool raw_allowed = true);

// A 16x8 layer (int16 activations, int8 symmetric weights) for the packed 16x8 kernels: its packed stem (the int8
// words' form; `_w16` added at --optimize speed), units, rows of `depth` elements (a window: kh * kw * input depth),
// scratch, and for network_info.txt what the rows are and how the kernel blocks them.
struct PackedS16 {
  std::string stem;
  int32_t units, depth;
  int64_t scratch_bytes;
  const char* what;      // "a window", "a row"
  const char* blocking;  // "3 pixels x 2 channels per step", ...
};

// Takes `layer`'s packed 16x8 kernel: the weights re-laid as the int8 packed kernels', the bias and the per-channel
// requantization kept. False (call.specialisation saying why) for rows past MICROAOT_PACKED_S16_MAX_WINDOW, whose
// int32 sums could overflow.
bool use_packed_s16_weights(const Graph& graph, const Target& target, KernelCall& call, const PackedS16& layer);

}  // namespace microaot
