// Quantized ONNX (onnx_qdq.cpp, onnx_qdq_fuse.cpp) on models built here with the protobuf classes: a QDQ
// group becomes one int8 op with the model's own int8 weights, uint8 folds into int8 exactly, a group the
// int8 kernels cannot take stays float, and what is not supported is refused by node.
#include <gtest/gtest.h>

#include <cstring>

#include "frontend/model_reader.h"
#include "frontend/onnx_test_util.h"
#include "ops/op_options.h"
#include "onnx/onnx_pb.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

struct Builder {
  onnx::ModelProto m;
  onnx::GraphProto* g;

  Builder() : g(m.mutable_graph()) {
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
  }

  void value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
             const std::vector<int64_t>& dims, int type = onnx::TensorProto::FLOAT) {
    onnx::ValueInfoProto* v = list->Add();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    for (int64_t d : dims) v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
  }
  void input(const std::string& name, const std::vector<int64_t>& dims, int type = onnx::TensorProto::FLOAT) {
    value(g->mutable_input(), name, dims, type);
  }
  void output(const std::string& name, const std::vector<int64_t>& dims, int type = onnx::TensorProto::FLOAT) {
    value(g->mutable_output(), name, dims, type);
  }

  template <typename T>
  void init(const std::string& name, int type, const std::vector<int64_t>& dims, const std::vector<T>& values) {
    onnx::TensorProto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(type);
    for (int64_t d : dims) t->add_dims(d);
    t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
  }
  void scale(const std::string& name, float s) { init<float>(name, onnx::TensorProto::FLOAT, {}, {s}); }
  void zp_s8(const std::string& name, int8_t z) { init<int8_t>(name, onnx::TensorProto::INT8, {}, {z}); }
  void zp_u8(const std::string& name, uint8_t z) { init<uint8_t>(name, onnx::TensorProto::UINT8, {}, {z}); }

  onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out) {
    return onnx_test::add_node(g, op, in, out);
  }
  static void set_int(onnx::NodeProto* n, const std::string& name, int64_t v) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  // QuantizeLinear then DequantizeLinear of `x` with the parameters named s, z.
  std::string qdq(const std::string& x, const std::string& s, const std::string& z) {
    node("QuantizeLinear", {x, s, z}, {x + "_q"});
    node("DequantizeLinear", {x + "_q", s, z}, {x + "_dq"});
    return x + "_dq";
  }

  Graph read() const {
    std::string bytes;
    m.SerializeToString(&bytes);
    return read_model(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  }
  std::string error() const {
    try {
      read();
    } catch (const CompileError& e) {
      return e.what();
    }
    return "";
  }
};

std::vector<OpKind> kinds_of(const Graph& g) {
  std::vector<OpKind> kinds;
  for (const Op& op : g.ops) kinds.push_back(op.kind);
  return kinds;
}

// x [1, 2, 4, 4] -> QDQ -> Conv 1x1 (3 channels, per-channel int8 weights, int32 bias) -> Relu (or
// Clip(0, 6)) -> QDQ -> y
Builder conv_group(bool clip = false) {
  Builder b;
  b.input("x", {1, 2, 4, 4});
  b.scale("sx", 0.05f), b.zp_s8("zx", 3), b.scale("sy", 0.1f), b.zp_s8("zy", -128);
  b.init<int8_t>("w", onnx::TensorProto::INT8, {3, 2, 1, 1}, {1, -2, 3, -4, 127, -127});
  b.init<float>("ws", onnx::TensorProto::FLOAT, {3}, {0.01f, 0.02f, 0.04f});
  b.init<int8_t>("wz", onnx::TensorProto::INT8, {3}, {0, 0, 0});
  b.init<int32_t>("bq", onnx::TensorProto::INT32, {3}, {100, -7, 0});
  b.init<float>("bs", onnx::TensorProto::FLOAT, {3}, {0.05f * 0.01f, 0.05f * 0.02f, 0.05f * 0.04f});
  b.init<int32_t>("bz", onnx::TensorProto::INT32, {3}, {0, 0, 0});
  const std::string x = b.qdq("x", "sx", "zx");
  Builder::set_int(b.node("DequantizeLinear", {"w", "ws", "wz"}, {"wf"}), "axis", 0);
  Builder::set_int(b.node("DequantizeLinear", {"bq", "bs", "bz"}, {"bf"}), "axis", 0);
  b.node("Conv", {x, "wf", "bf"}, {"c"});
  if (clip) {
    b.init<float>("lo", onnx::TensorProto::FLOAT, {}, {0.0f});
    b.init<float>("hi", onnx::TensorProto::FLOAT, {}, {6.0f});
    b.node("Clip", {"c", "lo", "hi"}, {"r"});
  } else {
    b.node("Relu", {"c"}, {"r"});
  }
  b.node("QuantizeLinear", {"r", "sy", "zy"}, {"rq"});
  b.node("DequantizeLinear", {"rq", "sy", "zy"}, {"y"});
  b.output("y", {1, 3, 4, 4});
  return b;
}

TEST(OnnxQdq, AConvGroupIsOneInt8ConvWithTheModelsOwnWeightsAndBias) {
  const Graph g = conv_group().read();
  // The float input quantized, laid out in NHWC as int8, one int8 conv with the Relu fused, dequantized,
  // and back in the user's NCHW.
  const std::vector<OpKind> want = {OpKind::Quantize, OpKind::Transpose, OpKind::Conv2D, OpKind::Dequantize,
                                    OpKind::Transpose};
  ASSERT_EQ(kinds_of(g), want);
  const Op& conv = g.ops[2];
  EXPECT_EQ(std::any_cast<Conv2DOptions>(conv.options).activation, Activation::kRelu);
  const Tensor& in = g.tensor(conv.inputs[0]);
  EXPECT_EQ(in.dtype, DType::kInt8);
  EXPECT_EQ(in.quant.zero_point, (std::vector<int64_t>{3}));
  const Tensor& w = g.tensor(conv.inputs[1]);
  ASSERT_EQ(w.dtype, DType::kInt8);
  EXPECT_EQ(constant_values<int8_t>(w), (std::vector<int8_t>{1, -2, 3, -4, 127, -127}));  // OHWI of 1x1: same order
  EXPECT_EQ(w.quant.scale, (std::vector<float>{0.01f, 0.02f, 0.04f}));
  EXPECT_EQ(w.quant.axis, 0);
  const Tensor& bias = g.tensor(conv.inputs[2]);
  ASSERT_EQ(bias.dtype, DType::kInt32);
  EXPECT_EQ(constant_values<int32_t>(bias), (std::vector<int32_t>{100, -7, 0}));
  EXPECT_FLOAT_EQ(bias.quant.scale[1], 0.05f * 0.02f);
  const Tensor& out = g.tensor(conv.outputs[0]);
  EXPECT_EQ(out.dtype, DType::kInt8);
  EXPECT_EQ(out.quant.scale, (std::vector<float>{0.1f}));
  for (const Tensor& t : g.tensors) {
    if (t.dtype == DType::kFloat32) {
      EXPECT_TRUE(t.quant.empty()) << t.name;  // the remembered parameters cleared
    }
  }
}

TEST(OnnxQdq, AClipToSixIsTheInt8ConvsRelu6) {
  const Graph g = conv_group(true).read();
  ASSERT_EQ(g.ops.size(), 5u);
  ASSERT_EQ(g.ops[2].kind, OpKind::Conv2D);
  EXPECT_EQ(std::any_cast<Conv2DOptions>(g.ops[2].options).activation, Activation::kRelu6);
  EXPECT_EQ(g.tensor(g.ops[2].inputs[1]).dtype, DType::kInt8);
}

TEST(OnnxQdq, Uint8IsInt8WithTheZeroPointLoweredBy128AndConvertedOnlyAtTheBoundary) {
  Builder b;
  b.input("x", {1, 4}, onnx::TensorProto::UINT8);
  b.scale("s", 0.5f), b.zp_u8("z", 130), b.scale("s2", 0.25f), b.zp_u8("z2", 7);
  b.node("DequantizeLinear", {"x", "s", "z"}, {"f"});
  b.node("Relu", {"f"}, {"r"});
  b.node("QuantizeLinear", {"r", "s2", "z2"}, {"y"});
  b.output("y", {1, 4}, onnx::TensorProto::UINT8);
  const Graph g = b.read();
  // uint8 -> int8 at the input, the int8 RELU, int8 -> uint8 at the output.
  const std::vector<OpKind> want = {OpKind::Quantize, OpKind::Relu, OpKind::Quantize};
  ASSERT_EQ(kinds_of(g), want);
  EXPECT_EQ(g.tensor(g.inputs[0]).dtype, DType::kUInt8);
  EXPECT_EQ(g.tensor(g.inputs[0]).quant.zero_point, (std::vector<int64_t>{130}));
  const Tensor& relu_in = g.tensor(g.ops[1].inputs[0]);
  EXPECT_EQ(relu_in.dtype, DType::kInt8);
  EXPECT_EQ(relu_in.quant.zero_point, (std::vector<int64_t>{2}));
  EXPECT_EQ(relu_in.quant.scale, (std::vector<float>{0.5f}));
  EXPECT_EQ(g.tensor(g.ops[1].outputs[0]).quant.zero_point, (std::vector<int64_t>{7 - 128}));
  EXPECT_EQ(g.tensor(g.outputs[0]).dtype, DType::kUInt8);
  EXPECT_EQ(g.tensor(g.outputs[0]).quant.zero_point, (std::vector<int64_t>{7}));
}

TEST(OnnxQdq, AGroupTheInt8KernelsCannotTakeStaysFloatBetweenDequantizeAndQuantize) {
  Builder b;  // MaxPool copies int8 values: its QuantizeLinear must keep the input's parameters, here it does not
  b.input("x", {1, 1, 4, 4});
  b.scale("s", 0.5f), b.zp_s8("z", 0), b.scale("s2", 0.25f);
  const std::string x = b.qdq("x", "s", "z");
  onnx::NodeProto* pool = b.node("MaxPool", {x}, {"p"});
  onnx::AttributeProto* k = pool->add_attribute();
  k->set_name("kernel_shape");
  k->set_type(onnx::AttributeProto::INTS);
  k->add_ints(2), k->add_ints(2);
  b.node("QuantizeLinear", {"p", "s2", "z"}, {"pq"});
  b.node("DequantizeLinear", {"pq", "s2", "z"}, {"y"});
  b.output("y", {1, 1, 3, 3});
  const Graph g = b.read();
  std::vector<OpKind> kinds = kinds_of(g);
  const auto pool_op = std::find(kinds.begin(), kinds.end(), OpKind::MaxPool2D);
  ASSERT_NE(pool_op, kinds.end());
  EXPECT_EQ(g.tensor(g.ops[static_cast<size_t>(pool_op - kinds.begin())].outputs[0]).dtype, DType::kFloat32);
}

// Where ONNX's rounding is not TFLM's and an int8 kernel can follow it exactly: a QDQ AveragePool rounds its
// integer mean half to even (QuantizeLinear's rounding of the float average), a QDQ LeakyRelu is a table of its
// exact results; the same ops from a .tflite keep TFLM's rounding (the options' defaults).
TEST(OnnxQdq, AveragePoolAndLeakyReluGroupsRoundAsOnnx) {
  Builder b;
  b.input("x", {1, 1, 4, 4});
  b.scale("s", 0.5f), b.zp_s8("z", 3);
  const std::string x = b.qdq("x", "s", "z");
  onnx::NodeProto* pool = b.node("AveragePool", {x}, {"p"});
  onnx::AttributeProto* k = pool->add_attribute();
  k->set_name("kernel_shape");
  k->set_type(onnx::AttributeProto::INTS);
  k->add_ints(2), k->add_ints(2);
  const std::string p = b.qdq("p", "s", "z");
  b.node("LeakyRelu", {p}, {"r"});
  b.node("QuantizeLinear", {"r", "s", "z"}, {"rq"});
  b.node("DequantizeLinear", {"rq", "s", "z"}, {"y"});
  b.output("y", {1, 1, 3, 3});
  const Graph g = b.read();
  int pools = 0, leaky = 0;
  for (const Op& op : g.ops) {
    if (op.kind == OpKind::AveragePool2D) {
      ++pools;
      EXPECT_EQ(g.tensor(op.outputs[0]).dtype, DType::kInt8);
      EXPECT_TRUE(std::any_cast<Pool2DOptions>(op.options).ties_to_even);
    }
    if (op.kind == OpKind::LeakyRelu) {
      ++leaky;
      EXPECT_EQ(g.tensor(op.outputs[0]).dtype, DType::kInt8);
      EXPECT_TRUE(std::any_cast<LeakyReluOptions>(op.options).onnx_table);
    }
  }
  EXPECT_EQ(pools, 1);
  EXPECT_EQ(leaky, 1);
  EXPECT_FALSE(Pool2DOptions{}.ties_to_even);
  EXPECT_FALSE(LeakyReluOptions{}.onnx_table);
}

TEST(OnnxQdq, GemmWithAlphaKeepsFloatWeights) {
  Builder b;
  b.input("x", {1, 2});
  b.scale("s", 0.5f), b.zp_s8("z", 0);
  b.init<int8_t>("w", onnx::TensorProto::INT8, {2, 2}, {1, 2, 3, 4});
  const std::string x = b.qdq("x", "s", "z");
  b.node("DequantizeLinear", {"w", "s", "z"}, {"wf"});
  onnx::NodeProto* gemm = b.node("Gemm", {x, "wf"}, {"m"});
  onnx::AttributeProto* a = gemm->add_attribute();
  a->set_name("alpha");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(2.0f);  // the weights x 2 are still integers: only the alpha rule keeps them float
  b.node("QuantizeLinear", {"m", "s", "z"}, {"mq"});
  b.node("DequantizeLinear", {"mq", "s", "z"}, {"y"});
  b.output("y", {1, 2});
  const Graph g = b.read();
  int float_fcs = 0;
  for (const Op& op : g.ops) {
    float_fcs += op.kind == OpKind::FullyConnected && g.tensor(op.inputs[1]).dtype == DType::kFloat32 ? 1 : 0;
  }
  EXPECT_EQ(float_fcs, 1);
}

TEST(OnnxQdq, OnnxruntimesContribQLinearAddIsAnInt8Add) {
  Builder b;
  b.input("a", {1, 4}, onnx::TensorProto::UINT8);
  b.input("b", {1, 4}, onnx::TensorProto::UINT8);
  b.scale("s", 0.5f), b.zp_u8("z", 128), b.scale("s2", 0.75f), b.zp_u8("z2", 120);
  b.node("QLinearAdd", {"a", "s", "z", "b", "s", "z", "s2", "z2"}, {"y"})->set_domain("com.microsoft");
  b.output("y", {1, 4}, onnx::TensorProto::UINT8);
  b.m.add_opset_import()->set_domain("com.microsoft");
  const Graph g = b.read();
  // Each uint8 input to int8 at the boundary, one int8 ADD, its result back to uint8.
  const std::vector<OpKind> want = {OpKind::Quantize, OpKind::Quantize, OpKind::Add, OpKind::Quantize};
  ASSERT_EQ(kinds_of(g), want);
  EXPECT_EQ(g.tensor(g.ops[2].outputs[0]).dtype, DType::kInt8);
  EXPECT_EQ(g.tensor(g.ops[2].outputs[0]).quant.zero_point, (std::vector<int64_t>{120 - 128}));
}

TEST(OnnxQdq, RefusesWhatItCannotHonourNamingTheNode) {
  {
    Builder b;  // a per-axis DequantizeLinear of a computed value
    b.input("x", {1, 2}, onnx::TensorProto::INT8);
    b.init<float>("s", onnx::TensorProto::FLOAT, {2}, {0.5f, 0.25f});
    b.init<int8_t>("z", onnx::TensorProto::INT8, {2}, {0, 0});
    b.node("DequantizeLinear", {"x", "s", "z"}, {"y"});
    b.output("y", {1, 2});
    const std::string e = b.error();
    EXPECT_NE(e.find("DequantizeLinear_1' (DequantizeLinear, version 13)"), std::string::npos) << e;
    EXPECT_NE(e.find("per-axis"), std::string::npos) << e;
  }
  {
    Builder b;  // an int16 zero point
    b.input("x", {1, 2});
    b.scale("s", 0.5f);
    b.init<int16_t>("z", onnx::TensorProto::INT16, {}, {0});
    b.node("QuantizeLinear", {"x", "s", "z"}, {"y"});
    b.output("y", {1, 2}, onnx::TensorProto::INT16);
    const std::string e = b.error();
    EXPECT_NE(e.find("QuantizeLinear_1' (QuantizeLinear"), std::string::npos) << e;
    EXPECT_NE(e.find("int16"), std::string::npos) << e;
  }
  {
    Builder b;  // QLinearConv with asymmetric (zero point 5) weights
    b.input("x", {1, 1, 2, 2}, onnx::TensorProto::UINT8);
    b.scale("s", 0.5f), b.zp_u8("z", 128), b.zp_u8("wz", 133);
    b.init<uint8_t>("w", onnx::TensorProto::UINT8, {1, 1, 1, 1}, {140});
    b.node("QLinearConv", {"x", "s", "z", "w", "s", "wz", "s", "z"}, {"y"});
    b.output("y", {1, 1, 2, 2}, onnx::TensorProto::UINT8);
    const Graph g = b.read();  // honoured in float: DEQUANTIZE, the float conv, QUANTIZE
    bool float_conv = false;
    for (const Op& op : g.ops) float_conv = float_conv || (op.kind == OpKind::Conv2D && g.tensor(op.inputs[1]).dtype == DType::kFloat32);
    EXPECT_TRUE(float_conv);
  }
}

}  // namespace
}  // namespace microaot
