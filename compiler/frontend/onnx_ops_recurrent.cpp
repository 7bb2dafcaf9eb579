// ONNX LSTM and GRU, unrolled over the sequence at compile time (its length is static): per direction, one
// FULLY_CONNECTED projects every step's input through W (with the biases that no gate multiplies), then each
// step adds the R product of the previous state, splits the gates and applies the default activations
// (Sigmoid, Tanh, Tanh) with float32 ADD / SUB / MUL / LOGISTIC / TANH. The state starts from initial_h and
// initial_c (zeros when absent) at every inference, as ONNX's does; nothing carries over between inferences.
#include <algorithm>
#include <string>
#include <vector>

#include "frontend/onnx_internal.h"
#include "ops/op_options.h"

namespace microaot::onnx_detail {

namespace {

constexpr int kLstmGates = 4;  // i, o, f, c
constexpr int kGruGates = 3;   // z, r, h

struct Recurrence {
  int seq = 0, batch = 0, input = 0, hidden = 0, directions = 1;
  bool reverse = false;      // direction "reverse" (bidirectional: direction 1 is the reverse one)
  bool batch_first = false;  // layout 1: X [batch, seq, input], states [batch, directions, hidden]
};

int elementwise(Converter& c, OpKind kind, int a, int b) {
  const std::vector<int32_t> shape = c.graph().tensor(a).shape;
  return c.emit1(kind, {a, b}, DType::kFloat32, shape, FusedActivationOptions{});
}
int unary(Converter& c, OpKind kind, int a) {
  const std::vector<int32_t> shape = c.graph().tensor(a).shape;
  return c.emit1(kind, {a}, DType::kFloat32, shape);
}

// `id` cut along `axis` into `n` equal pieces (SPLIT_V), or {id} when n is 1.
std::vector<int> split_even(Converter& c, int id, int axis, int n) {
  if (n == 1) return {id};
  std::vector<int32_t> piece = c.graph().tensor(id).shape;
  piece[static_cast<size_t>(axis)] /= n;
  std::vector<int> outs;
  for (int i = 0; i < n; ++i) outs.push_back(c.add_tensor(DType::kFloat32, piece, ""));
  const Value sizes = c.int32_constant({n}, std::vector<int32_t>(static_cast<size_t>(n), piece[static_cast<size_t>(axis)]), "");
  const Value av = c.int32_constant({}, {axis}, "");
  c.emit(OpKind::SplitV, {id, sizes.id, av.id}, outs);
  return outs;
}

constexpr size_t kMaxConcatInputs = 10;  // CONCATENATION's limit

// The pieces joined along `axis` (CONCATENATION, by groups of at most 10), or the one piece.
int concat(Converter& c, const std::vector<int>& parts, int axis) {
  if (parts.size() == 1) return parts[0];
  if (parts.size() > kMaxConcatInputs) {
    std::vector<int> groups;
    for (size_t i = 0; i < parts.size(); i += kMaxConcatInputs) {
      const size_t end = std::min(parts.size(), i + kMaxConcatInputs);
      groups.push_back(concat(c, std::vector<int>(parts.begin() + static_cast<std::ptrdiff_t>(i),
                                                  parts.begin() + static_cast<std::ptrdiff_t>(end)), axis));
    }
    return concat(c, groups, axis);
  }
  std::vector<int32_t> shape = c.graph().tensor(parts[0]).shape;
  shape[static_cast<size_t>(axis)] = 0;
  for (int p : parts) shape[static_cast<size_t>(axis)] += c.graph().tensor(p).shape[static_cast<size_t>(axis)];
  ConcatenationOptions o;
  o.axis = axis;
  return c.emit1(OpKind::Concatenation, parts, DType::kFloat32, shape, o);
}

// y = x W^T + b, W given as `rows` rows of `cols`.
int fc(Converter& c, int x, const std::vector<float>& w, int rows, int cols, const std::vector<float>& b) {
  const Value wv = c.float_constant({rows, cols}, w, "");
  const Value bv = c.float_constant({rows}, b, "");
  const int batch = c.graph().tensor(x).shape[0];
  return c.emit1(OpKind::FullyConnected, {x, wv.id, bv.id}, DType::kFloat32, {batch, rows}, FullyConnectedOptions{});
}

// Rows [first, first + count) of direction d's slice of a constant [directions, rows, cols].
std::vector<float> rows_of(const std::vector<float>& all, int d, int rows_per_dir, int cols, int first, int count) {
  const size_t begin = (static_cast<size_t>(d) * rows_per_dir + first) * static_cast<size_t>(cols);
  return {all.begin() + static_cast<std::ptrdiff_t>(begin),
          all.begin() + static_cast<std::ptrdiff_t>(begin + static_cast<size_t>(count) * cols)};
}

std::vector<float> sum(std::vector<float> a, const std::vector<float>& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

// The attributes both operators share; anything but the defaults ONNX's reference computes is refused.
Recurrence check_common(Converter& c, int gates, const std::vector<std::string>& activations) {
  if (c.has_attr("clip")) c.refuse("clip is not supported");
  const std::string direction = c.attr_string("direction", "forward");
  Recurrence r;
  const int64_t layout = c.attr_int("layout", 0);
  if (layout != 0 && layout != 1) c.refuse("layout " + std::to_string(layout) + " is not supported");
  r.batch_first = layout == 1;
  if (direction == "bidirectional") {
    r.directions = 2;
  } else if (direction == "reverse") {
    r.reverse = true;
  } else if (direction != "forward") {
    c.refuse("direction '" + direction + "' is not supported");
  }
  if (const onnx::AttributeProto* a = c.attr("activations")) {
    if (a->strings_size() != static_cast<int>(activations.size()) * r.directions) c.refuse("activations has the wrong count");
    for (int i = 0; i < a->strings_size(); ++i) {
      if (a->strings(i) != activations[static_cast<size_t>(i) % activations.size()]) {
        c.refuse("activation '" + a->strings(i) + "' is not supported (only the defaults)");
      }
    }
  }
  const Value x = c.input(0);
  if (c.tensor(x).dtype != DType::kFloat32) c.refuse("only float32 is supported");
  const std::vector<int64_t> xs = c.onnx_shape(x);
  if (xs.size() != 3) c.refuse("X must be rank 3");
  r.seq = static_cast<int>(xs[r.batch_first ? 1 : 0]), r.batch = static_cast<int>(xs[r.batch_first ? 0 : 1]);
  r.input = static_cast<int>(xs[2]);
  const std::vector<int64_t> rs = c.onnx_shape(c.input(2));
  if (rs.size() != 3 || rs[0] != r.directions || rs[1] != gates * rs[2]) c.refuse("R must be [directions, gates * hidden, hidden]");
  r.hidden = static_cast<int>(rs[2]);
  if (c.attr_int("hidden_size", r.hidden) != r.hidden) c.refuse("hidden_size does not match R");
  const std::vector<int64_t> ws = c.onnx_shape(c.input(1));
  if (ws != std::vector<int64_t>{r.directions, gates * r.hidden, r.input}) c.refuse("W must be [directions, gates * hidden, input]");
  if (c.has_input(4)) {
    for (int64_t len : c.constant_ints(c.input(4), "sequence_lens")) {
      if (len != r.seq) c.refuse("sequence_lens other than the full sequence length is not supported");
    }
  }
  return r;
}

std::vector<float> biases(Converter& c, const Recurrence& r, int gates) {
  const size_t n = static_cast<size_t>(r.directions) * 2 * gates * r.hidden;
  if (!c.has_input(3)) return std::vector<float>(n, 0.0f);
  std::vector<float> b = c.constant_floats(c.input(3), "B");
  if (b.size() != n) c.refuse("B must be [directions, 2 * gates * hidden]");
  return b;
}

// Each direction's [batch, hidden] slice of the state input `index`, zeros when absent.
std::vector<int> initial_states(Converter& c, const Recurrence& r, size_t index) {
  const std::vector<int32_t> shape = {r.batch, r.hidden};
  if (!c.has_input(index)) {
    const int zeros = c.float_constant(shape, std::vector<float>(static_cast<size_t>(r.batch) * r.hidden, 0.0f), "").id;
    return std::vector<int>(static_cast<size_t>(r.directions), zeros);
  }
  const Value v = c.input(index);
  const std::vector<int64_t> want = r.batch_first ? std::vector<int64_t>{r.batch, r.directions, r.hidden}
                                                  : std::vector<int64_t>{r.directions, r.batch, r.hidden};
  if (c.onnx_shape(v) != want) c.refuse("an initial state must be [directions, batch, hidden] ([batch, directions, hidden] for layout 1)");
  const int state = r.batch_first ? c.transpose(c.plain(v), {1, 0, 2}) : c.plain(v);
  std::vector<int> per_direction;
  for (int s : split_even(c, state, 0, r.directions)) per_direction.push_back(c.reshape(s, shape));
  return per_direction;
}

// X as [seq * batch, input] rows, step after step.
int input_rows(Converter& c, const Recurrence& r) {
  const int plain = c.plain(c.input(0));
  return c.reshape(r.batch_first ? c.transpose(plain, {1, 0, 2}) : plain, {r.seq * r.batch, r.input});
}

// Each step's [batch, gates * hidden] projection of X's rows `x` through direction d's W, with `bias`, in
// time order.
std::vector<int> input_projections(Converter& c, const Recurrence& r, int x, int gates, int d, const std::vector<float>& bias) {
  const int n = gates * r.hidden;
  const std::vector<float> w = rows_of(c.constant_floats(c.input(1), "W"), d, n, r.input, 0, n);
  const int all = c.reshape(fc(c, x, w, n, r.input, bias), {r.seq, r.batch * n});
  std::vector<int> steps;
  for (int s : split_even(c, all, 0, r.seq)) steps.push_back(c.reshape(s, {r.batch, n}));
  return steps;
}

// Binds Y [seq, directions, batch, hidden] from each direction's states in time order, and the last state
// of each direction as output `last` (Y_h) and `cell` (Y_c, when given).
void define_outputs(Converter& c, const Recurrence& r, const std::vector<std::vector<int>>& h,
                    const std::vector<int>& final_h, const std::vector<int>& final_c) {
  std::vector<int> per_dir, last_h, last_c;
  for (int d = 0; d < r.directions; ++d) {
    std::vector<int> steps;
    for (int s : h[static_cast<size_t>(d)]) steps.push_back(c.reshape(s, {1, 1, r.batch, r.hidden}));
    per_dir.push_back(concat(c, steps, 0));
    last_h.push_back(c.reshape(final_h[static_cast<size_t>(d)], {1, r.batch, r.hidden}));
    if (!final_c.empty()) last_c.push_back(c.reshape(final_c[static_cast<size_t>(d)], {1, r.batch, r.hidden}));
  }
  // layout 1: Y [batch, seq, directions, hidden], Y_h and Y_c [batch, directions, hidden]
  const auto laid = [&](int id, const std::vector<int>& perm) { return r.batch_first ? c.transpose(id, perm) : id; };
  if (!c.output_name(0).empty()) c.define(0, {laid(concat(c, per_dir, 1), {2, 0, 1, 3}), false});
  if (!c.output_name(1).empty()) c.define(1, {laid(concat(c, last_h, 0), {1, 0, 2}), false});
  if (!final_c.empty() && !c.output_name(2).empty()) c.define(2, {laid(concat(c, last_c, 0), {1, 0, 2}), false});
}

}  // namespace

void convert_lstm(Converter& c) {
  const Recurrence r = check_common(c, kLstmGates, {"Sigmoid", "Tanh", "Tanh"});
  if (c.attr_int("input_forget", 0) != 0) c.refuse("input_forget 1 is not supported");
  if (c.has_input(7)) c.refuse("peepholes (P) are not supported");
  const int n = kLstmGates * r.hidden;
  const std::vector<float> b = biases(c, r, kLstmGates);
  const std::vector<float> rw = c.constant_floats(c.input(2), "R");
  std::vector<std::vector<int>> ys(static_cast<size_t>(r.directions));
  std::vector<int> final_h, final_c;
  const int x = input_rows(c, r);
  const std::vector<int> h0 = initial_states(c, r, 5), c0 = initial_states(c, r, 6);
  for (int d = 0; d < r.directions; ++d) {
    const std::vector<float> wb = rows_of(b, d, 2 * n, 1, 0, n), rb = rows_of(b, d, 2 * n, 1, n, n);
    const std::vector<int> xw = input_projections(c, r, x, kLstmGates, d, sum(wb, rb));
    const std::vector<float> rd = rows_of(rw, d, n, r.hidden, 0, n);
    int h = h0[static_cast<size_t>(d)], cell = c0[static_cast<size_t>(d)];
    const bool backwards = r.reverse || d == 1;
    std::vector<int>& y = ys[static_cast<size_t>(d)];
    y.resize(static_cast<size_t>(r.seq));
    for (int i = 0; i < r.seq; ++i) {
      const int t = backwards ? r.seq - 1 - i : i;
      const int g = elementwise(c, OpKind::Add, xw[static_cast<size_t>(t)],
                                fc(c, h, rd, n, r.hidden, std::vector<float>(static_cast<size_t>(n), 0.0f)));
      const std::vector<int> gate = split_even(c, g, 1, kLstmGates);  // i, o, f, c
      const int in = unary(c, OpKind::Logistic, gate[0]), out = unary(c, OpKind::Logistic, gate[1]);
      const int forget = unary(c, OpKind::Logistic, gate[2]), candidate = unary(c, OpKind::Tanh, gate[3]);
      cell = elementwise(c, OpKind::Add, elementwise(c, OpKind::Mul, forget, cell),
                         elementwise(c, OpKind::Mul, in, candidate));
      h = elementwise(c, OpKind::Mul, out, unary(c, OpKind::Tanh, cell));
      y[static_cast<size_t>(t)] = h;
    }
    final_h.push_back(h);
    final_c.push_back(cell);
  }
  define_outputs(c, r, ys, final_h, final_c);
}

void convert_gru(Converter& c) {
  const Recurrence r = check_common(c, kGruGates, {"Sigmoid", "Tanh"});
  const bool linear_before_reset = c.attr_int("linear_before_reset", 0) != 0;
  const int hn = r.hidden, n = kGruGates * hn;
  const std::vector<float> b = biases(c, r, kGruGates);
  const std::vector<float> rw = c.constant_floats(c.input(2), "R");
  std::vector<std::vector<int>> ys(static_cast<size_t>(r.directions));
  std::vector<int> final_h;
  const int x = input_rows(c, r);
  const std::vector<int> h0 = initial_states(c, r, 5);
  for (int d = 0; d < r.directions; ++d) {
    const std::vector<float> wb = rows_of(b, d, 2 * n, 1, 0, n);
    std::vector<float> rb = rows_of(b, d, 2 * n, 1, n, n);
    // z and r take both biases in the projection; h takes Rbh there only where no r multiplies it.
    std::vector<float> xb = wb, hb(static_cast<size_t>(n), 0.0f);
    for (int j = 0; j < n; ++j) {
      const bool inside_reset = j >= 2 * hn && linear_before_reset;
      (inside_reset ? hb : xb)[static_cast<size_t>(j)] += rb[static_cast<size_t>(j)];
    }
    const std::vector<int> xw = input_projections(c, r, x, kGruGates, d, xb);
    int h = h0[static_cast<size_t>(d)];
    const bool backwards = r.reverse || d == 1;
    std::vector<int>& y = ys[static_cast<size_t>(d)];
    y.resize(static_cast<size_t>(r.seq));
    for (int i = 0; i < r.seq; ++i) {
      const int t = backwards ? r.seq - 1 - i : i;
      const std::vector<int> xg = split_even(c, xw[static_cast<size_t>(t)], 1, kGruGates);  // z, r, h
      const int rows = linear_before_reset ? n : 2 * hn;
      const std::vector<float> rbias(hb.begin(), hb.begin() + rows);
      const std::vector<int> hg = split_even(c, fc(c, h, rows_of(rw, d, n, hn, 0, rows), rows, hn, rbias), 1,
                                             linear_before_reset ? kGruGates : 2);
      const int z = unary(c, OpKind::Logistic, elementwise(c, OpKind::Add, xg[0], hg[0]));
      const int reset = unary(c, OpKind::Logistic, elementwise(c, OpKind::Add, xg[1], hg[1]));
      const int recurrent = linear_before_reset
                                ? elementwise(c, OpKind::Mul, reset, hg[2])
                                : fc(c, elementwise(c, OpKind::Mul, reset, h), rows_of(rw, d, n, hn, 2 * hn, hn), hn,
                                     hn, std::vector<float>(static_cast<size_t>(hn), 0.0f));
      const int candidate = unary(c, OpKind::Tanh, elementwise(c, OpKind::Add, xg[2], recurrent));
      // H = (1 - z) * candidate + z * H = candidate + z * (H - candidate)
      h = elementwise(c, OpKind::Add, candidate,
                      elementwise(c, OpKind::Mul, z, elementwise(c, OpKind::Sub, h, candidate)));
      y[static_cast<size_t>(t)] = h;
    }
    final_h.push_back(h);
  }
  define_outputs(c, r, ys, final_h, {});
}

}  // namespace microaot::onnx_detail
