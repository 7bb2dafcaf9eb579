// ONNX reader tests on models built here with the protobuf classes: the layout conversion of a small CNN,
// and hostile files (truncated, bit-flipped, external data, missing initializers, cycles, absurd shapes),
// each a CompileError naming what is wrong, never a crash (run under -DMICROAOT_SANITIZE=ON too).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "frontend/model_reader.h"
#include "frontend/onnx_reader.h"
#include "frontend/onnx_test_util.h"
#include "ops/op_options.h"
#include "onnx/onnx_pb.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

void add_value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
               const std::vector<int64_t>& dims, const std::string& symbolic = "") {
  onnx::ValueInfoProto* v = list->Add();
  v->set_name(name);
  onnx::TypeProto::Tensor* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) {
    auto* dim = t->mutable_shape()->add_dim();
    if (d < 0) {
      dim->set_dim_param(symbolic);
    } else {
      dim->set_dim_value(d);
    }
  }
}

onnx::TensorProto* add_initializer(onnx::GraphProto* g, const std::string& name, const std::vector<int64_t>& dims) {
  onnx::TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  int64_t n = 1;
  for (int64_t d : dims) {
    t->add_dims(d);
    n *= d;
  }
  for (int64_t i = 0; i < n; ++i) t->add_float_data(0.01f * static_cast<float>(i % 17) - 0.05f);
  return t;
}

using onnx_test::add_node;

void set_ints(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

// x [1, 2, 6, 6] -> Conv 3x3 pads 1 -> BatchNormalization -> Relu -> MaxPool 2x2 -> GlobalAveragePool
// -> Flatten -> Gemm -> y [1, 4]
onnx::ModelProto cnn(int64_t batch = 1) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  add_value(g->mutable_input(), "x", {batch, 2, 6, 6}, "N");
  add_initializer(g, "w", {3, 2, 3, 3});
  add_initializer(g, "b", {3});
  for (const char* p : {"scale", "bias", "mean"}) add_initializer(g, p, {3});
  add_initializer(g, "var", {3})->mutable_float_data()->Set(0, 1.0f);
  add_initializer(g, "fc", {4, 3});
  set_ints(add_node(g, "Conv", {"x", "w", "b"}, {"c"}), "pads", {1, 1, 1, 1});
  add_node(g, "BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"n"});
  add_node(g, "Relu", {"n"}, {"r"});
  onnx::NodeProto* pool = add_node(g, "MaxPool", {"r"}, {"p"});
  set_ints(pool, "kernel_shape", {2, 2});
  set_ints(pool, "strides", {2, 2});
  add_node(g, "GlobalAveragePool", {"p"}, {"q"});
  add_node(g, "Flatten", {"q"}, {"f"});
  onnx::NodeProto* gemm = add_node(g, "Gemm", {"f", "fc"}, {"y"});
  onnx::AttributeProto* tb = gemm->add_attribute();
  tb->set_name("transB");
  tb->set_type(onnx::AttributeProto::INT);
  tb->set_i(1);
  add_value(g->mutable_output(), "y", {batch, 4});
  return m;
}

std::vector<uint8_t> bytes_of(const onnx::ModelProto& m) {
  std::string s;
  m.SerializeToString(&s);
  return {s.begin(), s.end()};
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    read_model(bytes);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}
std::string error_of(const onnx::ModelProto& m) { return error_of(bytes_of(m)); }

#define EXPECT_ERROR_HAS(model, text) EXPECT_NE(error_of(model).find(text), std::string::npos) << error_of(model)

TEST(OnnxReader, ConvertsACnnToNhwcWithTheLayoutChangeAtTheInputOnly) {
  const Graph g = read_model(bytes_of(cnn()));
  std::vector<OpKind> kinds;
  for (const Op& op : g.ops) kinds.push_back(op.kind);
  // The input transposed once; BatchNormalization folded into the conv, the Relu its fused activation; the
  // global pool's [1,1,1,3] output flattened by a reshape (no bytes move); the Gemm a FULLY_CONNECTED.
  const std::vector<OpKind> want = {OpKind::Transpose, OpKind::Conv2D,  OpKind::MaxPool2D,
                                    OpKind::Mean,      OpKind::Reshape, OpKind::Reshape, OpKind::FullyConnected};
  EXPECT_EQ(kinds, want);
  EXPECT_EQ(options_if<Conv2DOptions>(g.ops[1])->activation, Activation::kRelu);
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.tensor(g.inputs[0]).shape, (std::vector<int32_t>{1, 2, 6, 6}));  // the user's NCHW
  EXPECT_EQ(g.tensor(g.ops[1].inputs[1]).shape, (std::vector<int32_t>{3, 3, 3, 2}));  // OHWI
  EXPECT_EQ(g.tensor(g.ops[1].outputs[0]).shape, (std::vector<int32_t>{1, 6, 6, 3}));
  EXPECT_EQ(g.tensor(g.outputs[0]).name, "y");
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (std::vector<int32_t>{1, 4}));
}

// x [1, 2, 6, 6] -> Conv 1x1 -> y [1, 3, 6, 6]: NCHW at both ends unless --io-layout nhwc, which leaves no
// TRANSPOSE; network_info.txt's source line (the description) says which.
onnx::ModelProto conv_only(int64_t channels = 2) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  add_value(g->mutable_input(), "x", {1, channels, 6, 6});
  add_initializer(g, "w", {3, channels, 1, 1});
  add_node(g, "Conv", {"x", "w"}, {"y"});
  add_value(g->mutable_output(), "y", {1, 3, 6, 6});
  return m;
}

std::vector<OpKind> kinds_of(const Graph& g) {
  std::vector<OpKind> kinds;
  for (const Op& op : g.ops) kinds.push_back(op.kind);
  return kinds;
}

TEST(OnnxReader, SaysHowTheBoundaryIsLaidOutAndTakesNhwcIoWhenAsked) {
  const Graph nchw = read_model(bytes_of(conv_only()));
  EXPECT_EQ(kinds_of(nchw), (std::vector<OpKind>{OpKind::Transpose, OpKind::Conv2D, OpKind::Transpose}));
  EXPECT_NE(nchw.description.find("input 'x' NCHW, a TRANSPOSE to NHWC (--io-layout nhwc takes it in NHWC)"),
            std::string::npos) << nchw.description;
  EXPECT_NE(nchw.description.find("output 'y' NCHW, a TRANSPOSE from NHWC (--io-layout nhwc gives it in NHWC)"),
            std::string::npos) << nchw.description;
  // One channel: the input's change of layout moves no data, a RESHAPE.
  const Graph one = read_model(bytes_of(conv_only(1)));
  EXPECT_EQ(one.ops[0].kind, OpKind::Reshape);
  EXPECT_NE(one.description.find("input 'x' NCHW, a RESHAPE to NHWC (only dimensions of 1 move"), std::string::npos)
      << one.description;
  OnnxReadOptions options;
  options.nhwc_io = true;
  const Graph nhwc = read_model(bytes_of(conv_only()), {}, options);
  EXPECT_EQ(kinds_of(nhwc), (std::vector<OpKind>{OpKind::Conv2D}));
  EXPECT_EQ(nhwc.tensor(nhwc.inputs[0]).shape, (std::vector<int32_t>{1, 6, 6, 2}));
  EXPECT_EQ(nhwc.tensor(nhwc.outputs[0]).shape, (std::vector<int32_t>{1, 6, 6, 3}));
  EXPECT_EQ(nhwc.tensor(nhwc.outputs[0]).name, "y");
  EXPECT_NE(nhwc.description.find("input 'x' NHWC (--io-layout nhwc); output 'y' NHWC (--io-layout nhwc)"),
            std::string::npos) << nhwc.description;
  // A model that reads its input in NCHW and computes its output so (x -> Flatten -> Reshape [1, 2, 6, 6] -> y)
  // keeps a TRANSPOSE at each end, and says why.
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  add_value(g->mutable_input(), "x", {1, 2, 6, 6});
  onnx::TensorProto* shape = g->add_initializer();
  shape->set_name("shape");
  shape->set_data_type(onnx::TensorProto::INT64);
  shape->add_dims(4);
  for (int64_t d : {1, 2, 6, 6}) shape->add_int64_data(d);
  add_node(g, "Flatten", {"x"}, {"f"});
  add_node(g, "Reshape", {"f", "shape"}, {"y"});
  add_value(g->mutable_output(), "y", {1, 2, 6, 6});
  const Graph plain = read_model(bytes_of(m), {}, options);
  EXPECT_EQ(kinds_of(plain).front(), OpKind::Transpose);
  EXPECT_EQ(kinds_of(plain).back(), OpKind::Transpose);
  EXPECT_NE(plain.description.find("input 'x' NHWC (--io-layout nhwc), a TRANSPOSE to NCHW: the model reads it in NCHW"),
            std::string::npos) << plain.description;
  EXPECT_NE(plain.description.find("output 'y' NHWC (--io-layout nhwc), a TRANSPOSE from NCHW: the model computes it"),
            std::string::npos) << plain.description;
  try {
    read_model(std::vector<uint8_t>(64, 0), {}, options);  // not ONNX: taken as a .tflite
    FAIL() << "--io-layout nhwc accepted for a .tflite";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--io-layout nhwc is for ONNX models"), std::string::npos) << e.what();
  }
}

TEST(OnnxReader, OutlinesNodesWithTheirVersionsAndWhetherTheyCompile) {
  onnx::ModelProto m = cnn();
  m.mutable_graph()->mutable_node(2)->set_op_type("Hardmax");
  const ModelOutline o = outline_model(bytes_of(m));
  ASSERT_EQ(o.ops.size(), 7u);
  EXPECT_EQ(o.ops[0].name, "Conv");
  EXPECT_EQ(o.ops[0].version, 11);  // opset 13 selects Conv-11
  EXPECT_TRUE(o.ops[0].compilable);
  EXPECT_EQ(o.ops[2].name, "Hardmax");
  EXPECT_FALSE(o.ops[2].compilable);
  ASSERT_EQ(o.inputs.size(), 1u);
  EXPECT_EQ(o.tensors[static_cast<size_t>(o.inputs[0])].type, "float");
  EXPECT_EQ(o.tensors[static_cast<size_t>(o.inputs[0])].shape, (std::vector<int32_t>{1, 2, 6, 6}));
}

// Shape -> Gather -> Unsqueeze -> Concat (with Mul of int64 constants) -> Reshape, as exporters write a
// flatten: folded to one RESHAPE whose shape is known at compile time.
TEST(OnnxReader, FoldsExportersShapeArithmetic) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  add_value(g->mutable_input(), "x", {2, 3, 4});
  const auto int64_initializer = [&](const std::string& name, const std::vector<int64_t>& dims,
                                     const std::vector<int64_t>& values) {
    onnx::TensorProto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims) t->add_dims(d);
    for (int64_t v : values) t->add_int64_data(v);
  };
  int64_initializer("zero", {}, {0});
  int64_initializer("axes", {1}, {0});
  int64_initializer("three", {1}, {3});
  int64_initializer("four", {1}, {4});
  add_node(g, "Shape", {"x"}, {"s"});
  add_node(g, "Gather", {"s", "zero"}, {"batch"});
  add_node(g, "Unsqueeze", {"batch", "axes"}, {"b1"});
  add_node(g, "Mul", {"three", "four"}, {"rest"});
  add_node(g, "Concat", {"b1", "rest"}, {"shape"})->add_attribute()->set_name("axis");
  g->mutable_node(4)->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
  add_node(g, "Reshape", {"x", "shape"}, {"y"});
  add_node(g, "Relu", {"y"}, {"z"});
  add_value(g->mutable_output(), "z", {2, 12});
  const Graph graph = read_model(bytes_of(m));
  ASSERT_EQ(graph.ops.size(), 2u);
  EXPECT_EQ(graph.ops[0].kind, OpKind::Reshape);
  EXPECT_EQ(graph.tensor(graph.ops[0].outputs[0]).shape, (std::vector<int32_t>{2, 12}));
}

TEST(OnnxReader, ConvertsA1dConvolutionAsA2dOne) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  add_value(g->mutable_input(), "x", {1, 2, 8});
  add_initializer(g, "w", {3, 2, 3});
  onnx::NodeProto* conv = add_node(g, "Conv", {"x", "w"}, {"y"});
  set_ints(conv, "pads", {1, 0});
  set_ints(conv, "strides", {2});
  add_value(g->mutable_output(), "y", {1, 3, 4});
  const Graph graph = read_model(bytes_of(m));
  const Op* found = nullptr;
  for (const Op& op : graph.ops) found = op.kind == OpKind::Conv2D ? &op : found;
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(graph.tensor(found->inputs[0]).shape, (std::vector<int32_t>{1, 1, 8, 2}));   // (N, 1, L, C)
  EXPECT_EQ(graph.tensor(found->inputs[1]).shape, (std::vector<int32_t>{3, 1, 3, 2}));   // OHWI, H = 1
  EXPECT_EQ(graph.tensor(found->outputs[0]).shape, (std::vector<int32_t>{1, 1, 4, 3}));  // (8 + 1 - 3) / 2 + 1
  EXPECT_EQ(graph.tensor(graph.outputs[0]).shape, (std::vector<int32_t>{1, 3, 4}));
  const auto& o = std::any_cast<const Conv2DOptions&>(found->options);
  EXPECT_EQ(o.stride_w, 2);
  EXPECT_EQ(o.stride_h, 1);
  ASSERT_TRUE(o.explicit_padding.has_value());
  EXPECT_EQ(o.explicit_padding->left, 1);
  EXPECT_EQ(o.explicit_padding->right, 0);
}

// Activations ONNX defines by formula become element-wise ops in the NHWC layout (no TRANSPOSE added), and
// ReduceL2 is SQRT(SUM(SQUARE(x))); a non-float input is refused by node.
TEST(OnnxReader, ComposesFormulaActivationsAndReductionsFromElementwiseOps) {
  onnx::ModelProto m = cnn();
  m.mutable_graph()->mutable_node(2)->set_op_type("HardSigmoid");
  std::vector<OpKind> kinds;
  for (const Op& op : read_model(bytes_of(m)).ops) kinds.push_back(op.kind);
  const std::vector<OpKind> hard_sigmoid = {OpKind::Conv2D, OpKind::Mul, OpKind::Add, OpKind::Maximum,
                                            OpKind::Minimum, OpKind::MaxPool2D};
  EXPECT_EQ(std::vector<OpKind>(kinds.begin() + 1, kinds.begin() + 7), hard_sigmoid);
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), OpKind::Transpose), 1);

  onnx::ModelProto r;
  r.set_ir_version(8);
  r.add_opset_import()->set_version(18);
  onnx::GraphProto* g = r.mutable_graph();
  add_value(g->mutable_input(), "x", {2, 3});
  add_node(g, "ReduceL2", {"x"}, {"y"});
  add_value(g->mutable_output(), "y", {1, 1});
  kinds.clear();
  for (const Op& op : read_model(bytes_of(r)).ops) kinds.push_back(op.kind);
  EXPECT_EQ(kinds, (std::vector<OpKind>{OpKind::Square, OpKind::Sum, OpKind::Sqrt}));
  g->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT32);
  EXPECT_ERROR_HAS(r, "(ReduceL2, version 18): only float32 is supported");

  // LayerNormalization over the last axis of [2, 3]: Y = (x - mean) / sqrt(var + eps) * scale, and Mean.
  g->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  add_initializer(g, "scale", {3});
  onnx::NodeProto* ln = g->mutable_node(0);
  ln->set_op_type("LayerNormalization");
  ln->add_input("scale");
  ln->add_output("mean");
  add_value(g->mutable_output(), "mean", {2, 1});
  g->mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1)->set_dim_value(3);
  const Graph norm = read_model(bytes_of(r));
  kinds.clear();
  for (const Op& op : norm.ops) kinds.push_back(op.kind);
  EXPECT_EQ(kinds, (std::vector<OpKind>{OpKind::Mean, OpKind::Sub, OpKind::Mul, OpKind::Mean, OpKind::Add,
                                        OpKind::Sqrt, OpKind::Div, OpKind::Mul, OpKind::Mul}));
  EXPECT_EQ(norm.tensor(norm.outputs[1]).shape, (std::vector<int32_t>{2, 1}));
  onnx::AttributeProto* stash = ln->add_attribute();
  stash->set_name("stash_type");
  stash->set_type(onnx::AttributeProto::INT);
  stash->set_i(0);
  EXPECT_ERROR_HAS(r, "(LayerNormalization, version 17): only stash_type 1 (float32) is supported");
}

TEST(OnnxReader, RecognisesTheFormatByContent) {
  EXPECT_TRUE(looks_like_onnx(bytes_of(cnn())));
  std::vector<uint8_t> tflite = {0x1c, 0, 0, 0, 'T', 'F', 'L', '3'};
  EXPECT_FALSE(looks_like_onnx(tflite));
}

TEST(OnnxReader, ASymbolicBatchIsOneAndAnotherSymbolicDimensionIsRefused) {
  const Graph batch = read_model(bytes_of(cnn(-1)));
  EXPECT_EQ(batch.tensor(batch.inputs[0]).shape[0], 1);
  EXPECT_NE(batch.description.find("symbolic batch of input 'x' ('N') taken as 1"), std::string::npos);
  onnx::ModelProto m = cnn();
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(2)->set_dim_param("H");
  EXPECT_ERROR_HAS(m, "fix it with --input-shape x=");
  OnnxReadOptions fixed;
  fixed.input_shapes["x"] = {1, 2, 6, 6};
  EXPECT_NO_THROW(read_onnx(bytes_of(m), fixed));
  fixed.input_shapes["x"] = {1, 3, 6, 6};  // the channels are fixed at 2
  EXPECT_THROW(read_onnx(bytes_of(m), fixed), CompileError);
  fixed.input_shapes = {{"w", {3, 2, 3, 3}}};  // an initializer, not an input
  EXPECT_THROW(read_onnx(bytes_of(m), fixed), CompileError);
}

TEST(OnnxReader, RefusesUnsupportedOperatorsByNodeOpTypeAndOpset) {
  onnx::ModelProto m = cnn();
  m.mutable_graph()->mutable_node(2)->set_op_type("Hardmax");
  EXPECT_ERROR_HAS(m, "node 'Relu_3' (Hardmax, opset 13): operator not supported");
  m = cnn();
  m.mutable_opset_import(0)->set_version(22);
  EXPECT_ERROR_HAS(m, "opset 22");
  m = cnn();  // an old opset is read, node by node: opset 5 selects BatchNormalization-1, not implemented
  m.mutable_opset_import(0)->set_version(5);
  EXPECT_ERROR_HAS(m, "(BatchNormalization, opset 5, version 1)");
  m.mutable_graph()->mutable_node(1)->set_op_type("Relu");  // Relu-1 is not implemented either
  m.mutable_graph()->mutable_node(1)->mutable_input()->DeleteSubrange(1, 4);
  EXPECT_ERROR_HAS(m, "(Relu, opset 5, version 1)");
  m = cnn();
  m.mutable_graph()->mutable_node(2)->set_domain("com.microsoft");
  EXPECT_ERROR_HAS(m, "com.microsoft.Relu");
}

TEST(OnnxReader, RefusesExternalDataMissingInitializersCyclesAndAbsurdShapes) {
  onnx::ModelProto m = cnn();
  m.mutable_graph()->mutable_initializer(0)->set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_ERROR_HAS(m, "external file");
  m = cnn();
  m.mutable_graph()->mutable_initializer()->DeleteSubrange(0, 1);
  EXPECT_ERROR_HAS(m, "'w' is used but never defined");
  m = cnn();
  m.mutable_graph()->mutable_node(0)->set_input(0, "r");  // Conv reads Relu's output, which needs Conv's
  EXPECT_ERROR_HAS(m, "cyclic");
  m = cnn();
  m.mutable_graph()->mutable_initializer(0)->set_dims(0, int64_t{1} << 40);
  EXPECT_ERROR_HAS(m, "out of range");
  m = cnn();
  m.mutable_graph()->mutable_initializer(0)->set_dims(0, 1 << 20);
  m.mutable_graph()->mutable_initializer(0)->set_dims(1, 1 << 20);
  EXPECT_ERROR_HAS(m, "2^31");
  m = cnn();
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1)->set_dim_value(1 << 30);
  EXPECT_ERROR_HAS(m, "more than 2^31 elements");
  m = cnn();
  m.mutable_graph()->mutable_node(0)->mutable_attribute(0)->set_ints(0, 1 << 30);  // pads
  EXPECT_ERROR_HAS(m, "pads out of range");
  m = cnn();
  m.mutable_graph()->mutable_initializer(1)->add_float_data(1.0f);
  EXPECT_ERROR_HAS(m, "'b' has 4 values, its shape needs 3");
  m = cnn();
  m.mutable_graph()->mutable_initializer(1)->clear_float_data();
  m.mutable_graph()->mutable_initializer(1)->set_raw_data("abc");
  EXPECT_ERROR_HAS(m, "'b' has 3 bytes of data, its shape needs 12");
}

// Every prefix and a few thousand random byte flips: a CompileError or a model, never a crash or another
// exception.
TEST(OnnxReader, TruncatedAndBitFlippedFilesGiveCompileErrors) {
  const std::vector<uint8_t> good = bytes_of(cnn());
  const auto read = [](const std::vector<uint8_t>& bytes) {
    try {
      read_model(bytes);
    } catch (const CompileError&) {
    }
  };
  for (size_t n = 0; n < good.size(); ++n) read({good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)});
  std::mt19937 rng(36);
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> bad = good;
    bad[rng() % bad.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    bad[0] = 0x08;  // stay on the ONNX path
    read(bad);
  }
  EXPECT_ERROR_HAS(std::vector<uint8_t>(good.begin(), good.begin() + 40), "malformed ONNX model");
}

// --- float operators of exported models (onnx_ops_fuse.cpp, onnx_ops_resize.cpp, onnx_ops_conv_transpose.cpp)

// x [1, 4, 4, 4] -> op(x, constant inputs) -> y; the model's opset 13.
onnx::ModelProto one_node(const std::string& op, const std::vector<std::pair<std::string, std::vector<int64_t>>>& consts,
                          const std::vector<int64_t>& out_dims, onnx::NodeProto** node) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  add_value(g->mutable_input(), "x", {1, 4, 4, 4});
  std::vector<std::string> inputs = {"x"};
  for (const auto& [name, dims] : consts) {
    inputs.push_back(name);
    if (!name.empty()) add_initializer(g, name, dims);
  }
  *node = add_node(g, op, inputs, {"y"});
  add_value(g->mutable_output(), "y", out_dims);
  return m;
}

TEST(OnnxReader, ConvertsAGroupedConvolutionToAConv2dWithAShallowFilter) {
  onnx::NodeProto* conv = nullptr;
  onnx::ModelProto m = one_node("Conv", {{"w", {6, 2, 3, 3}}}, {1, 6, 2, 2}, &conv);
  set_ints(conv, "kernel_shape", {3, 3});
  onnx::AttributeProto* group = conv->add_attribute();
  group->set_name("group");
  group->set_type(onnx::AttributeProto::INT);
  group->set_i(2);
  const Graph g = read_model(bytes_of(m));
  const Op& op = g.ops[1];
  ASSERT_EQ(op.kind, OpKind::Conv2D);
  EXPECT_EQ(g.tensor(op.inputs[1]).shape, (std::vector<int32_t>{6, 3, 3, 2}));  // OHWI, depth cin / group
}

// PyTorch writes a Constant node's value as raw_data, as it writes initializers.
TEST(OnnxReader, ReadsConstantNodesStoredAsRawData) {
  onnx::NodeProto* add = nullptr;
  onnx::ModelProto m = one_node("Add", {{"k", {}}}, {1, 4, 4, 4}, &add);
  m.mutable_graph()->mutable_initializer()->Clear();
  onnx::NodeProto* k = m.mutable_graph()->add_node();
  *k = *add;
  k->set_op_type("Constant");
  k->clear_input();
  k->set_output(0, "k");
  onnx::AttributeProto* value = k->add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto::TENSOR);
  const float two = 2.0f;
  value->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  value->mutable_t()->set_raw_data(std::string(reinterpret_cast<const char*>(&two), sizeof two));
  m.mutable_graph()->mutable_node()->SwapElements(0, 1);  // the Constant first
  const Graph g = read_model(bytes_of(m));
  ASSERT_EQ(g.ops.size(), 1u);
  const Tensor& constant = g.tensor(g.ops[0].inputs[1]);
  ASSERT_TRUE(constant.is_constant);
  EXPECT_EQ(constant_values<float>(constant), std::vector<float>{2.0f});
}

onnx::ModelProto resize(const std::string& mode, const std::string& coordinates, const std::string& rounding) {
  onnx::NodeProto* node = nullptr;
  onnx::ModelProto m = one_node("Resize", {{"", {}}, {"scales", {4}}}, {1, 4, 8, 8}, &node);
  onnx::TensorProto* scales = m.mutable_graph()->mutable_initializer(0);
  for (int i = 0; i < 4; ++i) scales->set_float_data(i, i < 2 ? 1.0f : 2.0f);
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"mode", mode},
                                   {"coordinate_transformation_mode", coordinates}, {"nearest_mode", rounding}}) {
    onnx::AttributeProto* a = node->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(text);
  }
  return m;
}

TEST(OnnxReader, ConvertsResizeToTheSamePixelsAsOnnx) {
  Graph g = read_model(bytes_of(resize("nearest", "asymmetric", "floor")));  // nn.Upsample's export
  ASSERT_EQ(g.ops.size(), 3u);  // the resize in NHWC between the transposes of the NCHW input and output
  EXPECT_EQ(g.ops[1].kind, OpKind::ResizeNearestNeighbor);
  EXPECT_EQ(g.tensor(g.ops[1].outputs[0]).shape, (std::vector<int32_t>{1, 8, 8, 4}));
  g = read_model(bytes_of(resize("linear", "pytorch_half_pixel", "floor")));
  EXPECT_EQ(g.ops[1].kind, OpKind::ResizeBilinear);
  EXPECT_TRUE(options_if<ResizeOptions>(g.ops[1])->half_pixel_centers);
  // ceil picks input 1 for output 1 (0.5) where TFLite's floor picks 0: ONNX's pixels, listed.
  g = read_model(bytes_of(resize("nearest", "asymmetric", "ceil")));
  const ResizeOptions& o = *options_if<ResizeOptions>(g.ops[1]);
  EXPECT_EQ(o.source_rows, (std::vector<int64_t>{0, 1, 1, 2, 2, 3, 3, 3}));
  EXPECT_EQ(o.source_cols, o.source_rows);
  EXPECT_ERROR_HAS(resize("cubic", "asymmetric", "floor"), "mode 'cubic' is not supported");
}

TEST(OnnxReader, ConvertsConvTransposeWhosePaddingTfliteCanExpress) {
  onnx::NodeProto* node = nullptr;
  onnx::ModelProto m = one_node("ConvTranspose", {{"w", {4, 3, 2, 2}}}, {1, 3, 8, 8}, &node);
  set_ints(node, "strides", {2, 2});
  Graph g = read_model(bytes_of(m));
  ASSERT_EQ(g.ops[1].kind, OpKind::TransposeConv);
  EXPECT_EQ(g.tensor(g.ops[1].inputs[1]).shape, (std::vector<int32_t>{3, 2, 2, 4}));  // OHWI
  EXPECT_EQ(g.tensor(g.ops[1].outputs[0]).shape, (std::vector<int32_t>{1, 8, 8, 3}));
  set_ints(node, "pads", {1, 1, 0, 0});  // the first row dropped, none at the end: neither SAME nor VALID
  EXPECT_ERROR_HAS(m, "neither TFLite's SAME nor VALID");
}

// x [1, 2, 6, 6] -> Conv (3 channels, pads 1) -> Flatten -> Gemm (transB): the FULLY_CONNECTED reads the conv's
// NHWC output reshaped, its weights' columns re-laid from (c, h, w) to (h, w, c); no TRANSPOSE before it.
TEST(OnnxReader, FlattensAnNhwcValueIntoAGemmWithoutATranspose) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  add_value(g->mutable_input(), "x", {1, 2, 6, 6});
  add_initializer(g, "w", {3, 2, 3, 3});
  add_initializer(g, "fc", {4, 108});
  set_ints(add_node(g, "Conv", {"x", "w"}, {"c"}), "pads", {1, 1, 1, 1});
  add_node(g, "Flatten", {"c"}, {"f"});
  onnx::AttributeProto* tb = add_node(g, "Gemm", {"f", "fc"}, {"y"})->add_attribute();
  tb->set_name("transB");
  tb->set_type(onnx::AttributeProto::INT);
  tb->set_i(1);
  add_value(g->mutable_output(), "y", {1, 4});
  const Graph graph = read_model(bytes_of(m));
  const Op& fc = graph.ops.back();
  ASSERT_EQ(fc.kind, OpKind::FullyConnected);
  const auto producer = [&](int tensor) {
    for (const Op& op : graph.ops) {
      if (op.outputs[0] == tensor) return &op;
    }
    return static_cast<const Op*>(nullptr);
  };
  const Op* reshape = producer(fc.inputs[0]);
  ASSERT_NE(reshape, nullptr);
  ASSERT_EQ(reshape->kind, OpKind::Reshape);
  ASSERT_EQ(producer(reshape->inputs[0])->kind, OpKind::Conv2D);  // [1, 6, 6, 3] as it lies
  const std::vector<float> w = constant_values<float>(graph.tensor(fc.inputs[1]));
  const onnx::TensorProto& b = g->initializer(1);
  // row 1, h 2, w 3, channel 1: (h, w, c) column (2 * 6 + 3) * 3 + 1 reads (c, h, w) column (1 * 6 + 2) * 6 + 3
  EXPECT_EQ(w[108 + 46], b.float_data(108 + 51));
}

}  // namespace
}  // namespace microaot
