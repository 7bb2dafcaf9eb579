// Fused bands: a chain of row-streamable layers (convolutions, depthwise, pools) run band by band, each layer
// computing a few output rows as soon as the rows of its input exist. The intermediate maps never exist whole:
// each lives in a line buffer, a window of consecutive rows whose kept rows move to its front when the
// producer needs room (one memmove of the halo rows). A pure function of the rows geometry: the compile
// (compile/plan_memory.cpp) sizes the line buffers from it and codegen emits its actions in order.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

namespace microaot {

// Where a residual ADD's second operand comes from: none, the chain's input, or layer k's output (k >= 0).
constexpr int kNoSkip = -2;
constexpr int kChainInput = -1;

// The kernel family of a band layer, which sets its costs per call and per byte (memory/band_cost.def).
enum class BandFamily {
#define MICROAOT_BAND_FAMILY(id, name, call, call_per_channel, halo_milli, moved_milli, in_place_milli) id,
#include "memory/band_cost.def"
#undef MICROAOT_BAND_FAMILY
};

// One family's constants (band_cost.def): per extra call, per extra call and channel, and thousandths of an
// instruction per halo byte, per byte moved, per input byte an untiled in-place variant copies.
struct BandCostConstants {
  const char* name;
  int64_t call, call_per_channel, halo_milli, moved_milli, in_place_milli;
};
const BandCostConstants& band_cost_constants(BandFamily family);

// One layer's rows: output row y reads input rows y * stride - pad + [0, extent) clipped to the input. A
// residual ADD (extent 1, stride 1, no padding) also reads row y of its skip operand: the chain's input or an
// earlier layer's output, whose line buffer then keeps the rows the ADD has yet to read.
struct BandLayer {
  int64_t input_rows = 0;
  int64_t output_rows = 0;
  int64_t extent = 1;  // (filter_height - 1) * dilation + 1
  int64_t stride = 1;
  int64_t pad = 0;              // rows of padding before the first input row
  int64_t input_row_bytes = 0;  // one row of the input (width * depth * element size)
  int64_t output_row_bytes = 0;
  int skip = kNoSkip;
  // A layout op at the chain's head (a TRANSPOSE from NCHW): output row y reads input bytes from
  // y * input_row_bytes on, spread over the rest of the input rather than one row of it (input_rows =
  // output_rows, extent 1, stride 1); the bytes below stay free for the chain's output as for any first layer.
  bool layout_head = false;
  // What each call of the layer sets up again (bands_cost): its filter's elements (0 for a pool, an ADD, a
  // layout op) and its output channels.
  int64_t weights = 0;
  int64_t channels = 0;
  BandFamily family = BandFamily::kConv;
  // Whether the untiled plan runs the layer's in-place variant (_overlap), whose row copies a chain saves.
  bool in_place_untiled = false;
  // The instructions each call of the layer spends again beyond that set-up: a DSP palette kernel's decode of
  // its weights, once per call (compile/plan_bands.cpp); 0 for the others.
  int64_t call_setup = 0;
};

// Layer `layer` computes its output rows [first_row, end_row) from its input rows [input_first, input_end),
// which start `input_row` rows into its input buffer (the whole input or a line buffer) and are written
// `output_row` rows into its output buffer; pad is the padding rows before input_first for this call. A
// residual ADD reads its skip rows [first_row, end_row) from `skip_row` rows into their buffer.
struct BandCall {
  int layer = 0;
  int64_t first_row = 0, end_row = 0;
  int64_t input_first = 0, input_end = 0;
  int64_t input_row = 0;
  int64_t output_row = 0;
  int64_t pad = 0;
  int64_t skip_row = 0;
};

// Rows [from, from + count) of line buffer `buffer` (the output of layer `buffer`) move to its row `to`.
struct BandMove {
  int buffer = 0;
  int64_t from = 0, to = 0, count = 0;
};

// One action of the schedule: a call (is_call) or a move.
struct BandAction {
  bool is_call = true;
  BandCall call;
  BandMove move;
};

struct BandSchedule {
  std::vector<BandAction> actions;
  std::vector<int64_t> line_rows;  // per layer but the last: the rows its line buffer holds
  int64_t calls = 0;
  int64_t moved_bytes = 0;
};

// How a schedule paces its layers: kLastLayer, the last layer's band_rows at a time, each earlier layer
// computing in one call all the rows the next one needs (fewer calls; line buffers widen up the chain by its
// strides); kEveryLayer, every layer at most band_rows rows a call, pulled as its consumer needs them (line
// buffers of about one window each; more calls).
enum class BandPace { kLastLayer, kEveryLayer };

// The input rows [first, end) that output rows [out_first, out_end) of `layer` read, clipped to the input.
void input_rows_of(const BandLayer& layer, int64_t out_first, int64_t out_end, int64_t& first, int64_t& end);

// The schedule of `layers` (each reads the previous one's output, the first the chain's input; a residual ADD
// also its skip operand) producing the last layer's output `band_rows` rows at a time (band_rows >= 1). The
// first layer reads the whole input and the last writes the whole output; every other output lives in a line
// buffer of line_rows[i] rows, which keeps the rows all its readers still need.
BandSchedule schedule_bands(const std::vector<BandLayer>& layers, int64_t band_rows,
                            BandPace pace = BandPace::kLastLayer);

// The largest shift offset(output) - offset(input) in bytes at which the last layer's output may overlap the
// chain's input: each band's output ends before the first input row that band or a later one still reads
// (the first layer's window, or a residual ADD's skip rows).
int64_t bands_output_shift(const std::vector<BandLayer>& layers, const BandSchedule& schedule);

// A chain of consecutive steps run band by band: step first_step + i computes layers[i].
struct FusedChain {
  int first_step = 0;
  int last_step = 0;
  int64_t band_rows = 0;
  BandPace pace = BandPace::kLastLayer;
  std::vector<BandLayer> layers;
  BandSchedule schedule;
  int64_t extra_instructions = 0;  // the cost model's estimate (bands_cost)
  int64_t output_shift = 0;        // bands_output_shift of the schedule
  bool contains(int step) const { return step >= first_step && step <= last_step; }
};

// Per layer of a schedule: its calls, the bytes of input rows its calls read that the previous call read
// already (halo rows set up again, such as the depthwise ring's widening), and the bytes moved to the front of
// its line buffer.
struct BandLayerWork {
  int64_t calls = 0;
  int64_t halo_bytes = 0;
  int64_t moved_bytes = 0;
};
std::vector<BandLayerWork> band_layer_work(const std::vector<BandLayer>& layers, const BandSchedule& schedule);

// The cost model's extra instructions of one layer run band by band (docs/tiling.md, "The cost model"; its
// family's constants in band_cost.def): per extra call its set-up (fixed, per output channel and the layer's own
// call_setup), per byte of halo rows read again, per byte moved in its line buffer, less the row copies of
// the in-place variant the untiled plan runs (negative when that saving is larger).
int64_t band_layer_cost(const BandLayer& layer, const BandLayerWork& work, const BandCostConstants& k);
int64_t band_layer_cost(const BandLayer& layer, const BandLayerWork& work);  // the family's constants

// The cost model's instructions of a layer's in-place variant (_overlap: its rows copied through scratch) over
// an input map of `input_bytes`: what a chain saves where the untiled plan runs it, and what a step outside
// the chains costs more (or less) where the plan with chains runs it and the untiled plan does not (or the
// reverse: compile/plan_bands.h, variant_switches).
int64_t in_place_variant_cost(int64_t input_bytes, const BandCostConstants& k);

// The sum of band_layer_cost over the layers of a schedule: may be negative (a chain cheaper than whole layers).
int64_t bands_cost(const std::vector<BandLayer>& layers, const BandSchedule& schedule);

// A band call's shape: its input rows, output rows and top padding. Calls of one layer with the same shape
// share one params struct in NAME.c (codegen/emit_bands.cpp); the flash estimate counts them too.
using BandShape = std::tuple<int64_t, int64_t, int64_t>;
BandShape band_shape(const BandCall& call);
// The distinct shapes of `layer`'s calls in `schedule`, in order of first use: the index names the struct.
std::vector<BandShape> band_shapes(const BandSchedule& schedule, int layer);

}  // namespace microaot
