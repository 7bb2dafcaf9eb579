#include "memory/band_choice.h"

#include <algorithm>

#include "support/diagnostics.h"

namespace microaot {

namespace {

bool inside(const ChainSpan& s, int step) { return step >= s.first_step && step <= s.last_step; }

// Record r as the span leaves it: lifetime ends inside mapped to its first step, a line buffer's bytes.
BufferRecord banded(const BufferRecord& r, const ChainSpan& s) {
  BufferRecord b = r;
  if (inside(s, b.first_op)) b.first_op = s.first_step;
  if (inside(s, b.last_op)) b.last_op = s.first_step;
  if (b.kind != BufferKind::kTensor) return b;
  for (const auto& [tensor, bytes] : s.line_buffers) {
    if (tensor == b.tensor_id) b.size = align_up(bytes, b.alignment);
  }
  return b;
}

}  // namespace

std::vector<BufferRecord> band_records(const std::vector<BufferRecord>& records, const std::vector<ChainSpan>& spans) {
  std::vector<BufferRecord> out = records;
  for (const ChainSpan& s : spans) {
    for (BufferRecord& r : out) r = banded(r, s);
  }
  return out;
}

std::vector<int64_t> live_bytes(const std::vector<BufferRecord>& records, const std::vector<ChainSpan>& spans,
                                size_t steps) {
  std::vector<int64_t> live(steps + 1, 0);
  for (const BufferRecord& r : records) {
    if (r.kind != BufferKind::kTensor) continue;
    for (int step = r.first_op; step <= r.last_op && step < static_cast<int>(live.size()); ++step) live[step] += r.size;
  }
  for (const ChainSpan& s : spans) live[s.first_step] -= s.overlap_bytes;
  return live;
}

std::vector<int64_t> span_delta(const std::vector<BufferRecord>& records, const ChainSpan& span) {
  std::vector<int64_t> delta(static_cast<size_t>(span.last_step - span.first_step + 1), 0);
  const auto add = [&](const BufferRecord& r, int64_t sign) {
    const int from = std::max(r.first_op, span.first_step), to = std::min(r.last_op, span.last_step);
    for (int step = from; step <= to; ++step) delta[static_cast<size_t>(step - span.first_step)] += sign * r.size;
  };
  for (const BufferRecord& r : records) {
    if (r.kind != BufferKind::kTensor) continue;
    const BufferRecord b = banded(r, span);
    if (b.first_op == r.first_op && b.last_op == r.last_op && b.size == r.size) continue;
    MICROAOT_CHECK(b.size == r.size || (inside(span, r.first_op) && inside(span, r.last_op)),
                   "a line buffer lives beyond its chain");
    add(b, 1);
    add(r, -1);
  }
  delta[0] -= span.overlap_bytes;
  return delta;
}

LiveScore live_score(const std::vector<int64_t>& live) {
  LiveScore s;
  for (int64_t bytes : live) {
    s.peak = std::max(s.peak, bytes);
    s.squares += static_cast<double>(bytes) * static_cast<double>(bytes);
  }
  return s;
}

namespace {

// The options by steps, band height and pace: where a chosen chain's remainder is found (by first step,
// then length: a few options each).
class OptionIndex {
 public:
  explicit OptionIndex(const std::vector<ChainOption>& options) : options_(options) {
    for (size_t i = 0; i < options.size(); ++i) {
      const ChainOption& o = options[i];
      MICROAOT_CHECK(o.first_step >= 0 && o.last_step >= o.first_step, "a band option without steps");
      if (by_first_.size() <= static_cast<size_t>(o.first_step)) by_first_.resize(static_cast<size_t>(o.first_step) + 1);
      std::vector<std::vector<int>>& by_length = by_first_[static_cast<size_t>(o.first_step)];
      const size_t length = static_cast<size_t>(o.last_step - o.first_step);
      if (by_length.size() <= length) by_length.resize(length + 1);
      by_length[length].push_back(static_cast<int>(i));
    }
  }
  // The option of steps [first, last] run as `like` runs, or -1.
  int find(int first, int last, const ChainOption& like) const {
    if (first < 0 || last < first || static_cast<size_t>(first) >= by_first_.size()) return -1;
    const std::vector<std::vector<int>>& by_length = by_first_[static_cast<size_t>(first)];
    const size_t length = static_cast<size_t>(last - first);
    if (length >= by_length.size()) return -1;
    for (const int i : by_length[length]) {
      if (options_[i].band_rows == like.band_rows && options_[i].pace == like.pace) return i;
    }
    return -1;
  }

 private:
  const std::vector<ChainOption>& options_;
  std::vector<std::vector<std::vector<int>>> by_first_;
};

// A step of the walk: the choice with option i added, the chosen options it drops and those it adds (i and
// the parts of the dropped ones that are kept).
struct Move {
  std::vector<int> next, removed, added;
};

// The greedy walk; with `cuts`, an added option may also cut the chosen ones it overlaps.
class Walk {
 public:
  Walk(const BandChoiceRequest& r, const OptionIndex& index, bool cuts)
      : r_(r), index_(index), cuts_(cuts), live_(r.live), score_(live_score(live_)) {
    refresh();
  }

  BandChoice run() {
    Move move, best;
    while (r_.target_bytes <= 0 || score_.peak > r_.target_bytes) {
      best.next.clear();
      double best_value = 0;
      LiveScore best_score;
      int64_t best_cost = 0;
      for (size_t i = 0; i < r_.options.size(); ++i) {
        if (std::find(choice_.begin(), choice_.end(), static_cast<int>(i)) != choice_.end()) continue;
        for (const bool trim : {false, true}) {
          if (trim && !cuts_) break;
          with_option(static_cast<int>(i), trim, move);
          if (trim && move.added.size() <= 1) break;  // nothing cut: the same as without
          int64_t extra = 0;
          for (int c : move.next) extra += r_.options[c].extra_instructions;
          if (extra > r_.max_extra) continue;
          const LiveScore s = score_of(move);
          const double saved = s.peak < score_.peak
                                   ? static_cast<double>(score_.peak - s.peak)
                                   : (s.peak == score_.peak ? (score_.squares - s.squares) * 1e-12 : 0);
          if (saved <= 0) continue;
          const double value = saved / static_cast<double>(std::max<int64_t>(1, extra - cost_ + 1000));
          if (best.next.empty() || value > best_value) {
            best = move;
            best_value = value;
            best_score = s;
            best_cost = extra;
          }
        }
      }
      if (best.next.empty()) break;
      apply(best);
      cost_ = best_cost;
      MICROAOT_CHECK(score_.peak == best_score.peak, "band score drifted");
    }
    BandChoice c{choice_, score_, cost_};
    std::sort(c.options.begin(), c.options.end(),
              [&](int a, int b) { return r_.options[a].first_step < r_.options[b].first_step; });
    return c;
  }

 private:
  void with_option(int i, bool trim, Move& m) const {
    const ChainOption& added = r_.options[i];
    m.next.assign(1, i);
    m.added.assign(1, i);
    m.removed.clear();
    for (int c : choice_) {
      const ChainOption& chosen = r_.options[c];
      if (chosen.first_step > added.last_step || added.first_step > chosen.last_step) {
        m.next.push_back(c);
        continue;
      }
      m.removed.push_back(c);
      if (!trim) continue;
      for (const int part : {index_.find(chosen.first_step, added.first_step - 1, chosen),
                             index_.find(added.last_step + 1, chosen.last_step, chosen)}) {
        if (part < 0) continue;
        m.next.push_back(part);
        m.added.push_back(part);
      }
    }
  }

  // The live bytes of the move's steps (those of the options it removes and adds) in window_.
  void window_of(const Move& m, int& lo, int& hi) {
    lo = r_.options[m.added[0]].first_step;
    hi = r_.options[m.added[0]].last_step;
    for (int c : m.removed) {
      lo = std::min(lo, r_.options[c].first_step);
      hi = std::max(hi, r_.options[c].last_step);
    }
    window_.assign(live_.begin() + lo, live_.begin() + hi + 1);
    const auto apply_delta = [&](int c, int64_t sign) {
      const ChainOption& o = r_.options[c];
      for (size_t k = 0; k < o.delta.size(); ++k) window_[o.first_step - lo + k] += sign * o.delta[k];
    };
    for (int c : m.removed) apply_delta(c, -1);
    for (int c : m.added) apply_delta(c, 1);
  }

  LiveScore score_of(const Move& m) {
    int lo = 0, hi = 0;
    window_of(m, lo, hi);
    LiveScore s = score_;
    s.peak = std::max(lo > 0 ? prefix_max_[lo - 1] : 0, hi + 1 < static_cast<int>(live_.size()) ? suffix_max_[hi + 1] : 0);
    for (int step = lo; step <= hi; ++step) {
      const int64_t now = window_[step - lo];
      s.peak = std::max(s.peak, now);
      const double before = static_cast<double>(live_[step]);
      s.squares += static_cast<double>(now) * static_cast<double>(now) - before * before;
    }
    return s;
  }

  void apply(const Move& m) {
    int lo = 0, hi = 0;
    window_of(m, lo, hi);
    std::copy(window_.begin(), window_.end(), live_.begin() + lo);
    choice_ = m.next;
    score_ = live_score(live_);
    refresh();
  }

  void refresh() {
    const size_t n = live_.size();
    prefix_max_.assign(n, 0);
    suffix_max_.assign(n, 0);
    for (size_t k = 0; k < n; ++k) prefix_max_[k] = std::max(k > 0 ? prefix_max_[k - 1] : 0, live_[k]);
    for (size_t k = n; k-- > 0;) suffix_max_[k] = std::max(k + 1 < n ? suffix_max_[k + 1] : 0, live_[k]);
  }

  const BandChoiceRequest& r_;
  const OptionIndex& index_;
  const bool cuts_;
  std::vector<int> choice_;
  std::vector<int64_t> live_, window_, prefix_max_, suffix_max_;
  LiveScore score_;
  int64_t cost_ = 0;
};

}  // namespace

BandChoice choose_chains(const BandChoiceRequest& request) {
  const OptionIndex index(request.options);
  const BandChoice plain = Walk(request, index, false).run();
  const BandChoice cut = Walk(request, index, true).run();
  const int64_t target = request.target_bytes;
  const bool fits = target > 0 && plain.score.peak <= target && cut.score.peak <= target;
  const bool take_cut = fits ? cut.extra_instructions < plain.extra_instructions
                             : std::make_pair(cut.score.peak, cut.extra_instructions) <
                                   std::make_pair(plain.score.peak, plain.extra_instructions);
  return take_cut ? cut : plain;
}

bool better_placed(const PlacedBands& a, const PlacedBands& b, int64_t budget) {
  const bool a_fits = a.ram_bytes <= budget, b_fits = b.ram_bytes <= budget;
  if (a_fits != b_fits) return a_fits;
  if (a_fits) return std::make_pair(a.extra_instructions, a.ram_bytes) < std::make_pair(b.extra_instructions, b.ram_bytes);
  return std::make_pair(a.ram_bytes, a.extra_instructions) < std::make_pair(b.ram_bytes, b.extra_instructions);
}

}  // namespace microaot
