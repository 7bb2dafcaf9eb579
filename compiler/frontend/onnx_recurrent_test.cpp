// ONNX LSTM and GRU (onnx_ops_recurrent.cpp) on models built here: the unrolled graph's ops and shapes per
// direction, layout and sequence length, and every unsupported attribute or input refused by name. Their
// arithmetic is checked against ONNX's expected outputs (the node suite, onnx_conformance_test.cpp) and
// onnxruntime (lstm_f32, gru_f32 of tests/onnx/make_models.py).
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/onnx_reader.h"
#include "frontend/onnx_test_util.h"
#include "onnx/onnx_pb.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

struct Rnn {
  std::string op = "LSTM";
  int opset = 14, seq = 3, batch = 2, input = 4, hidden = 5;
  std::string direction = "forward";
  int layout = 0;
  bool sequence_lens_input = false;  // sequence_lens a graph input instead of a constant
  int sequence_len = -1;             // a constant sequence_lens of this value (-1: absent)
  bool peepholes = false;
  std::vector<std::pair<std::string, int64_t>> int_attrs;
  std::vector<std::string> activations;
  bool clip = false;
  int elem_type = onnx::TensorProto::FLOAT;
};

void add_value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
               const std::vector<int64_t>& dims, int elem_type = onnx::TensorProto::FLOAT) {
  onnx::ValueInfoProto* v = list->Add();
  v->set_name(name);
  onnx::TypeProto::Tensor* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem_type);
  for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

void add_weights(onnx::GraphProto* g, const std::string& name, const std::vector<int64_t>& dims) {
  onnx::TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  int64_t n = 1;
  for (int64_t d : dims) t->add_dims(d), n *= d;
  for (int64_t i = 0; i < n; ++i) t->add_float_data(0.01f * static_cast<float>(i % 13) - 0.06f);
}

void add_int_attr(onnx::NodeProto* n, const std::string& name, int64_t v) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

std::vector<uint8_t> model(const Rnn& r) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(r.opset);
  onnx::GraphProto* g = m.mutable_graph();
  const int64_t dirs = r.direction == "bidirectional" ? 2 : 1, gates = r.op == "LSTM" ? 4 : 3;
  const bool bf = r.layout == 1;
  add_value(g->mutable_input(), "x", bf ? std::vector<int64_t>{r.batch, r.seq, r.input}
                                        : std::vector<int64_t>{r.seq, r.batch, r.input}, r.elem_type);
  add_weights(g, "w", {dirs, gates * r.hidden, r.input});
  add_weights(g, "r", {dirs, gates * r.hidden, r.hidden});
  add_weights(g, "b", {dirs, 2 * gates * r.hidden});
  std::vector<std::string> in = {"x", "w", "r", "b", "", "h0"};
  if (r.sequence_lens_input) {
    add_value(g->mutable_input(), "lens", {r.batch}, onnx::TensorProto::INT32);
    in[4] = "lens";
  } else if (r.sequence_len >= 0) {
    onnx::TensorProto* t = g->add_initializer();
    t->set_name("lens");
    t->set_data_type(onnx::TensorProto::INT32);
    t->add_dims(r.batch);
    for (int i = 0; i < r.batch; ++i) t->add_int32_data(r.sequence_len);
    in[4] = "lens";
  }
  const std::vector<int64_t> state = bf ? std::vector<int64_t>{r.batch, dirs, r.hidden}
                                        : std::vector<int64_t>{dirs, r.batch, r.hidden};
  add_value(g->mutable_input(), "h0", state);  // initial_h computed; initial_c absent (zeros)
  if (r.peepholes) {
    in.insert(in.end(), {"", "p"});
    add_weights(g, "p", {dirs, 3 * r.hidden});
  }
  std::vector<std::string> out = {"y", "y_h"};
  if (r.op == "LSTM") out.push_back("y_c");
  onnx::NodeProto* n = onnx_test::add_node(g, r.op, in, out);
  add_int_attr(n, "hidden_size", r.hidden);
  if (r.layout != 0) add_int_attr(n, "layout", r.layout);
  for (const auto& [name, v] : r.int_attrs) add_int_attr(n, name, v);
  onnx::AttributeProto* d = n->add_attribute();
  d->set_name("direction");
  d->set_type(onnx::AttributeProto::STRING);
  d->set_s(r.direction);
  if (!r.activations.empty()) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("activations");
    a->set_type(onnx::AttributeProto::STRINGS);
    for (const std::string& s : r.activations) a->add_strings(s);
  }
  if (r.clip) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("clip");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(3.0f);
  }
  const std::vector<int64_t> y = bf ? std::vector<int64_t>{r.batch, r.seq, dirs, r.hidden}
                                    : std::vector<int64_t>{r.seq, dirs, r.batch, r.hidden};
  add_value(g->mutable_output(), "y", y);
  add_value(g->mutable_output(), "y_h", state);
  if (r.op == "LSTM") add_value(g->mutable_output(), "y_c", state);
  std::string s;
  m.SerializeToString(&s);
  return {s.begin(), s.end()};
}

std::string error_of(const Rnn& r) {
  try {
    read_onnx(model(r));
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

size_t count(const Graph& g, OpKind kind) {
  return static_cast<size_t>(std::count_if(g.ops.begin(), g.ops.end(), [&](const Op& op) { return op.kind == kind; }));
}

TEST(OnnxRecurrent, LstmUnrollsOneRecurrentProductPerStepAfterOneInputProjection) {
  const Graph g = read_onnx(model(Rnn{}));
  EXPECT_EQ(count(g, OpKind::FullyConnected), 1u + 3u);  // X W^T for all steps, then h R^T per step
  EXPECT_EQ(count(g, OpKind::Logistic), 3u * 3u);        // i, o, f per step
  EXPECT_EQ(count(g, OpKind::Tanh), 2u * 3u);            // c~ and tanh(C) per step
  for (const Op& op : g.ops) {
    EXPECT_NE(op.kind, OpKind::UnidirectionalSequenceLstm) << "no state carried across inferences";
  }
  ASSERT_EQ(g.outputs.size(), 3u);
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (std::vector<int32_t>{3, 1, 2, 5}));
  EXPECT_EQ(g.tensor(g.outputs[1]).shape, (std::vector<int32_t>{1, 2, 5}));
  EXPECT_EQ(g.tensor(g.outputs[2]).shape, (std::vector<int32_t>{1, 2, 5}));
}

TEST(OnnxRecurrent, GruWithoutLinearBeforeResetMultipliesTheResetStateThroughItsOwnProduct) {
  Rnn r;
  r.op = "GRU", r.direction = "bidirectional";
  const Graph g = read_onnx(model(r));
  // per direction: the projection, then per step (z, r) from h and h~ from r * h
  EXPECT_EQ(count(g, OpKind::FullyConnected), 2u * (1u + 2u * 3u));
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (std::vector<int32_t>{3, 2, 2, 5}));
  EXPECT_EQ(g.tensor(g.outputs[1]).shape, (std::vector<int32_t>{2, 2, 5}));
  r.int_attrs = {{"linear_before_reset", 1}};
  EXPECT_EQ(count(read_onnx(model(r)), OpKind::FullyConnected), 2u * (1u + 3u));
}

TEST(OnnxRecurrent, BatchFirstLayoutAndLongSequencesKeepOnnxShapes) {
  Rnn r;
  r.layout = 1, r.seq = 23, r.direction = "reverse";  // Y joined from 23 steps: CONCATENATION takes 10 at most
  const Graph g = read_onnx(model(r));
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (std::vector<int32_t>{2, 23, 1, 5}));
  EXPECT_EQ(g.tensor(g.outputs[1]).shape, (std::vector<int32_t>{2, 1, 5}));
  for (const Op& op : g.ops) EXPECT_LE(op.inputs.size(), 10u);
  r.op = "GRU", r.opset = 13, r.layout = 0;  // GRU version 7
  const Graph gru = read_onnx(model(r));
  EXPECT_EQ(gru.tensor(gru.outputs[0]).shape, (std::vector<int32_t>{23, 1, 2, 5}));
  Rnn full;
  full.sequence_len = 3;  // sequence_lens equal to the whole sequence is the default
  EXPECT_EQ(error_of(full), "");
}

TEST(OnnxRecurrent, RefusesWhatItDoesNotComputeByName) {
  const auto expect_refused = [](const Rnn& r, const std::string& text) {
    const std::string e = error_of(r);
    EXPECT_NE(e.find(text), std::string::npos) << e;
    EXPECT_NE(e.find("(" + r.op + ", "), std::string::npos) << e;  // the node, its op_type and version
  };
  Rnn r;
  r.peepholes = true;
  expect_refused(r, "peepholes");
  r = Rnn{}, r.int_attrs = {{"input_forget", 1}};
  expect_refused(r, "input_forget");
  r = Rnn{}, r.clip = true;
  expect_refused(r, "clip");
  r = Rnn{}, r.activations = {"Sigmoid", "Relu", "Tanh"};
  expect_refused(r, "activation 'Relu'");
  r = Rnn{}, r.op = "GRU", r.activations = {"HardSigmoid", "Tanh"};
  expect_refused(r, "activation 'HardSigmoid'");
  r = Rnn{}, r.sequence_len = 2;
  expect_refused(r, "sequence_lens other than the full sequence length");
  r = Rnn{}, r.sequence_lens_input = true;
  expect_refused(r, "sequence_lens must be a constant");
  r = Rnn{}, r.layout = 2;
  expect_refused(r, "layout 2");
  r = Rnn{}, r.direction = "sideways";
  expect_refused(r, "direction 'sideways'");
  r = Rnn{}, r.elem_type = onnx::TensorProto::INT32;
  expect_refused(r, "only float32");
  r = Rnn{}, r.opset = 6;  // LSTM version 1
  expect_refused(r, "this version is not supported");
  r = Rnn{}, r.op = "GRU", r.opset = 6;  // GRU version 3
  expect_refused(r, "this version is not supported");
}

}  // namespace
}  // namespace microaot
