#include "memory/bands.h"

#include <algorithm>

#include "support/diagnostics.h"

namespace microaot {

void input_rows_of(const BandLayer& layer, int64_t out_first, int64_t out_end, int64_t& first, int64_t& end) {
  first = std::clamp<int64_t>(out_first * layer.stride - layer.pad, 0, layer.input_rows);
  end = std::clamp<int64_t>((out_end - 1) * layer.stride - layer.pad + layer.extent, 0, layer.input_rows);
}

namespace {

// The walk over the bands, shared by the sizing pass (capacity 0: keep only the rows still needed, moving
// every band) and the final pass (move only when the rows would not fit the capacity found).
struct BandWalk {
  const std::vector<BandLayer>& layers;
  std::vector<int64_t> capacity;  // per line buffer; 0 = move eagerly
  BandSchedule out;
  std::vector<int64_t> produced, base;

  BandWalk(const std::vector<BandLayer>& l, std::vector<int64_t> cap)
      : layers(l), capacity(std::move(cap)), produced(l.size(), 0), base(l.size(), 0) {
    out.line_rows.assign(l.size() - 1, 0);
  }

  // The first row of layer j's output that a reader still reads (all rows read: the end): the next layer's
  // window, and the skip rows of a residual ADD that takes it.
  int64_t first_kept(size_t j) const {
    int64_t keep = produced[j];
    const BandLayer& next = layers[j + 1];
    if (produced[j + 1] < next.output_rows) {
      int64_t first = 0, end = 0;
      input_rows_of(next, produced[j + 1], produced[j + 1] + 1, first, end);
      keep = std::min(keep, first);
    }
    for (size_t k = j + 2; k < layers.size(); ++k) {
      if (layers[k].skip == static_cast<int>(j) && produced[k] < layers[k].output_rows) {
        keep = std::min(keep, produced[k]);
      }
    }
    return keep;
  }

  // Makes room in line buffer j for its rows up to `target`.
  void make_room(size_t j, int64_t target) {
    const int64_t keep = first_kept(j);
    const bool eager = capacity[j] == 0;
    if (keep > base[j] && (eager || target - base[j] > capacity[j])) {
      const int64_t count = produced[j] - keep;
      if (count > 0) {
        BandAction a;
        a.is_call = false;
        a.move = {static_cast<int>(j), keep - base[j], 0, count};
        out.actions.push_back(a);
        out.moved_bytes += count * layers[j].output_row_bytes;
      }
      base[j] = keep;
    }
    out.line_rows[j] = std::max(out.line_rows[j], target - base[j]);
  }

  void compute(size_t j, int64_t target) {
    const BandLayer& layer = layers[j];
    BandCall c;
    c.layer = static_cast<int>(j);
    c.first_row = produced[j];
    c.end_row = target;
    input_rows_of(layer, c.first_row, c.end_row, c.input_first, c.input_end);
    c.pad = c.input_first - (c.first_row * layer.stride - layer.pad);
    c.input_row = c.input_first;
    if (j > 0) {
      MICROAOT_CHECK(c.input_first >= base[j - 1] && c.input_end <= produced[j - 1], "band reads rows not kept");
      c.input_row = c.input_first - base[j - 1];
    }
    if (layer.skip >= 0) {
      const size_t k = static_cast<size_t>(layer.skip);
      MICROAOT_CHECK(c.first_row >= base[k] && c.end_row <= produced[k], "band reads skip rows not kept");
      c.skip_row = c.first_row - base[k];
    } else if (layer.skip == kChainInput) {
      c.skip_row = c.first_row;
    }
    c.output_row = c.first_row;
    if (j + 1 < layers.size()) {
      make_room(j, target);
      c.output_row = c.first_row - base[j];
    }
    BandAction a;
    a.call = c;
    out.actions.push_back(a);
    ++out.calls;
    produced[j] = target;
  }

  // kEveryLayer: layer j's rows up to `target`, band_rows a call, each call's input rows pulled first.
  void pull(size_t j, int64_t target, int64_t band_rows) {
    while (produced[j] < target) {
      const int64_t next = std::min(produced[j] + band_rows, target);
      if (j > 0) {
        int64_t first = 0, end = 0;
        input_rows_of(layers[j], produced[j], next, first, end);
        pull(j - 1, end, band_rows);
      }
      if (layers[j].skip >= 0) pull(static_cast<size_t>(layers[j].skip), next, band_rows);
      compute(j, next);
    }
  }

  void run(int64_t band_rows, BandPace pace) {
    const size_t n = layers.size();
    if (pace == BandPace::kEveryLayer) {
      pull(n - 1, layers[n - 1].output_rows, band_rows);
      return;
    }
    for (int64_t rows = band_rows;; rows += band_rows) {
      std::vector<int64_t> target = produced;
      target[n - 1] = std::min(rows, layers[n - 1].output_rows);
      for (size_t j = n - 1; j > 0; --j) {  // what each layer must have produced for the ones after it
        if (target[j] <= produced[j]) continue;
        int64_t first = 0, end = 0;
        input_rows_of(layers[j], produced[j], target[j], first, end);
        target[j - 1] = std::max(target[j - 1], end);
        if (layers[j].skip >= 0) target[layers[j].skip] = std::max(target[layers[j].skip], target[j]);
      }
      for (size_t j = 0; j < n; ++j) {
        if (target[j] > produced[j]) compute(j, target[j]);
      }
      if (target[n - 1] >= layers[n - 1].output_rows) break;
    }
  }
};

}  // namespace

BandSchedule schedule_bands(const std::vector<BandLayer>& layers, int64_t band_rows, BandPace pace) {
  MICROAOT_CHECK(layers.size() >= 2 && band_rows >= 1, "a band schedule needs two layers and a band height");
  for (size_t j = 1; j < layers.size(); ++j) {
    MICROAOT_CHECK(layers[j].input_rows == layers[j - 1].output_rows, "band layers do not chain");
    const BandLayer& l = layers[j];
    if (l.skip == kNoSkip) continue;
    const int64_t skip_rows = l.skip == kChainInput ? layers[0].input_rows : layers[l.skip].output_rows;
    MICROAOT_CHECK(l.skip < static_cast<int>(j) - 1 && l.extent == 1 && l.stride == 1 && l.pad == 0 &&
                       skip_rows == l.output_rows && l.input_rows == l.output_rows,
                   "a residual band layer reads rows of a different shape");
  }
  MICROAOT_CHECK(layers[0].skip == kNoSkip, "the first band layer has no skip operand");
  const BandLayer& head = layers[0];
  MICROAOT_CHECK(!head.layout_head || (head.extent == 1 && head.stride == 1 && head.pad == 0 &&
                                       head.input_rows == head.output_rows),
                 "a layout head maps output row y to input row y");
  for (size_t j = 1; j < layers.size(); ++j) {
    MICROAOT_CHECK(!layers[j].layout_head && (!head.layout_head || layers[j].skip != kChainInput),
                   "a layout op only heads a chain, and no residual ADD reads its input");
  }
  BandWalk sizing(layers, std::vector<int64_t>(layers.size() - 1, 0));
  sizing.run(band_rows, pace);
  BandWalk walk(layers, sizing.out.line_rows);
  walk.run(band_rows, pace);
  return walk.out;
}

int64_t bands_output_shift(const std::vector<BandLayer>& layers, const BandSchedule& schedule) {
  const BandLayer& first = layers.front();
  const BandLayer& last = layers.back();
  const int last_layer = static_cast<int>(layers.size()) - 1;
  int64_t shift = first.input_rows * first.input_row_bytes;  // nothing read after the band: no limit inside
  int64_t next_read = first.input_rows;  // the first input row this call or a later one reads
  for (auto a = schedule.actions.rbegin(); a != schedule.actions.rend(); ++a) {
    if (!a->is_call) continue;
    const BandCall& c = a->call;
    if (c.layer == 0) next_read = std::min(next_read, c.input_first);
    if (layers[c.layer].skip == kChainInput) next_read = std::min(next_read, c.first_row);
    if (c.layer == last_layer) {
      shift = std::min(shift, next_read * first.input_row_bytes - c.end_row * last.output_row_bytes);
    }
  }
  return shift;
}

std::vector<BandLayerWork> band_layer_work(const std::vector<BandLayer>& layers, const BandSchedule& schedule) {
  std::vector<BandLayerWork> work(layers.size());
  std::vector<int64_t> read_end(layers.size(), 0);
  for (const BandAction& a : schedule.actions) {
    if (!a.is_call) {
      const size_t b = static_cast<size_t>(a.move.buffer);
      work[b].moved_bytes += a.move.count * layers[b].output_row_bytes;
      continue;
    }
    const BandCall& c = a.call;
    const size_t l = static_cast<size_t>(c.layer);
    ++work[l].calls;
    work[l].halo_bytes += std::max<int64_t>(0, read_end[l] - c.input_first) * layers[l].input_row_bytes;
    read_end[l] = c.input_end;
  }
  return work;
}

const BandCostConstants& band_cost_constants(BandFamily family) {
  static const BandCostConstants table[] = {
#define MICROAOT_BAND_FAMILY(id, name, call, call_per_channel, halo_milli, moved_milli, in_place_milli) \
  {name, call, call_per_channel, halo_milli, moved_milli, in_place_milli},
#include "memory/band_cost.def"
#undef MICROAOT_BAND_FAMILY
  };
  const auto i = static_cast<size_t>(family);
  MICROAOT_CHECK(i < sizeof(table) / sizeof(table[0]), "band family without cost constants");
  return table[i];
}

int64_t band_layer_cost(const BandLayer& layer, const BandLayerWork& work, const BandCostConstants& k) {
  const int64_t extra_calls = std::max<int64_t>(0, work.calls - 1);
  const int64_t milli = work.halo_bytes * k.halo_milli + work.moved_bytes * k.moved_milli;
  const int64_t whole = extra_calls * (k.call + k.call_per_channel * layer.channels + layer.call_setup);
  const int64_t credit = layer.in_place_untiled ? in_place_variant_cost(layer.input_rows * layer.input_row_bytes, k) : 0;
  return whole + milli / 1000 - credit;
}

int64_t in_place_variant_cost(int64_t input_bytes, const BandCostConstants& k) {
  return input_bytes * k.in_place_milli / 1000;
}

int64_t band_layer_cost(const BandLayer& layer, const BandLayerWork& work) {
  return band_layer_cost(layer, work, band_cost_constants(layer.family));
}

int64_t bands_cost(const std::vector<BandLayer>& layers, const BandSchedule& schedule) {
  const std::vector<BandLayerWork> work = band_layer_work(layers, schedule);
  int64_t cost = 0;
  for (size_t l = 0; l < layers.size(); ++l) cost += band_layer_cost(layers[l], work[l]);
  return cost;
}

BandShape band_shape(const BandCall& call) {
  return {call.input_end - call.input_first, call.end_row - call.first_row, call.pad};
}

std::vector<BandShape> band_shapes(const BandSchedule& schedule, int layer) {
  std::vector<BandShape> shapes;
  for (const BandAction& a : schedule.actions) {
    if (!a.is_call || a.call.layer != layer) continue;
    const BandShape s = band_shape(a.call);
    if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
  }
  return shapes;
}

}  // namespace microaot
