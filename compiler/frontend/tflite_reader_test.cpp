// Reader tests on real files: the reference models (ops, inputs, outputs vs golden.json) and every
// single-operator model of the op suite (opcode names, options vs the case's params).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "frontend/shared_data_test_util.h"
#include "frontend/tflite_reader.h"
#include "ops/op_options.h"
#include "support/diagnostics.h"

namespace microaot {
namespace {

using namespace shared_data;
using nlohmann::json;

const char* kModels[] = {"ad_autoencoder_f32", "ad_autoencoder_int8", "hello_world_f32", "hello_world_int8",
                         "ic_resnet8_int8",    "kws_dscnn_int8",      "micro_speech_int8", "simple_add_int8",
                         "vww_mobilenet_f32",  "vww_mobilenet_int8"};

void expect_io_matches(const Graph& graph, const std::vector<int>& ids, const json& golden) {
  ASSERT_EQ(ids.size(), golden.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    const Tensor& t = graph.tensor(ids[i]);
    const json& g = golden[i];
    SCOPED_TRACE(g["name"].get<std::string>());
    EXPECT_EQ(t.name, g["name"].get<std::string>());
    EXPECT_STREQ(dtype_name(t.dtype), g["dtype"].get<std::string>().c_str());
    EXPECT_EQ(t.shape, g["shape"].get<std::vector<int32_t>>());
    EXPECT_FALSE(t.is_constant);
    if (g["scale"].is_null()) {
      EXPECT_TRUE(t.quant.empty());
    } else {
      ASSERT_EQ(t.quant.scale.size(), 1u);
      EXPECT_EQ(t.quant.scale[0], g["scale"].get<float>());  // 9 digits round-trip a float exactly
      EXPECT_EQ(t.quant.zero_point[0], g["zero_point"].get<int64_t>());
    }
  }
}

// Output height/width of a windowed op from its input, options and window, as TFLite defines them. Checks
// that padding, strides, dilations and filter sizes land in the right fields (h vs w).
int window_out(int in, int filter, int stride, int dilation, Padding padding) {
  const int effective = (filter - 1) * dilation + 1;
  return padding == Padding::kSame ? (in + stride - 1) / stride : (in - effective + stride) / stride;
}

void expect_window_shapes(const Graph& g, const Op& op) {
  const std::vector<int32_t>& in = g.tensor(op.inputs[0]).shape;
  const std::vector<int32_t>& out = g.tensor(op.outputs[0]).shape;
  int fh = 0, fw = 0, sh = 0, sw = 0, dh = 1, dw = 1;
  Padding pad = Padding::kValid;
  if (const auto* c = options_if<Conv2DOptions>(op)) {
    fh = g.tensor(op.inputs[1]).shape[1], fw = g.tensor(op.inputs[1]).shape[2];
    sh = c->stride_h, sw = c->stride_w, dh = c->dilation_h, dw = c->dilation_w, pad = c->padding;
  } else if (const auto* d = options_if<DepthwiseConv2DOptions>(op)) {
    fh = g.tensor(op.inputs[1]).shape[1], fw = g.tensor(op.inputs[1]).shape[2];
    sh = d->stride_h, sw = d->stride_w, dh = d->dilation_h, dw = d->dilation_w, pad = d->padding;
  } else if (const auto* p = options_if<Pool2DOptions>(op)) {
    fh = p->filter_h, fw = p->filter_w, sh = p->stride_h, sw = p->stride_w, pad = p->padding;
  } else {
    return;
  }
  SCOPED_TRACE(describe_op(g, op));
  ASSERT_EQ(in.size(), 4u);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[1], window_out(in[1], fh, sh, dh, pad));
  EXPECT_EQ(out[2], window_out(in[2], fw, sw, dw, pad));
}

class RealModel : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModel, MatchesGolden) {
  const fs::path dir = kShared / "models" / GetParam();
  if (!shared_available(dir)) GTEST_SKIP() << dir << " not present";
  const Graph graph = read_tflite_file((dir / "model.tflite").string());
  const json golden = load_json(dir / "golden.json");

  EXPECT_EQ(graph.ops.size(), golden["op_count"].get<size_t>());
  std::vector<std::string> first_use;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    EXPECT_EQ(graph.ops[i].source_index, static_cast<int>(i));
    const std::string name = op_kind_name(graph.ops[i].kind);
    if (std::find(first_use.begin(), first_use.end(), name) == first_use.end()) first_use.push_back(name);
  }
  EXPECT_EQ(first_use, golden["ops"].get<std::vector<std::string>>());
  for (const Op& op : graph.ops) expect_window_shapes(graph, op);
  expect_io_matches(graph, graph.inputs, golden["inputs"]);
  expect_io_matches(graph, graph.outputs, golden["outputs"]);
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    const Tensor& t = graph.tensors[i];
    EXPECT_EQ(t.source_index, static_cast<int>(i));
    if (t.is_constant) {
      EXPECT_EQ(static_cast<int64_t>(t.data.size()), t.byte_size()) << t.name;
    }
  }
}

// The intermediates of golden.json name each written tensor and its producer.
TEST_P(RealModel, IntermediatesMatchProducers) {
  const fs::path dir = kShared / "models" / GetParam();
  if (!shared_available(dir)) GTEST_SKIP() << dir << " not present";
  const Graph graph = read_tflite_file((dir / "model.tflite").string());
  const json golden = load_json(dir / "golden.json");
  for (const json& t : golden["intermediates"]) {
    const int id = t["tensor"].get<int>();
    const int producer = t["producer_op_index"].get<int>();
    ASSERT_LT(producer, static_cast<int>(graph.ops.size()));
    const Op& op = graph.ops[producer];
    EXPECT_STREQ(op_kind_name(op.kind), t["producer_op"].get<std::string>().c_str());
    EXPECT_NE(std::find(op.outputs.begin(), op.outputs.end(), id), op.outputs.end());
    EXPECT_EQ(graph.tensor(id).shape, t["shape"].get<std::vector<int32_t>>());
    EXPECT_EQ(graph.tensor(id).name, t["name"].get<std::string>());
  }
}

INSTANTIATE_TEST_SUITE_P(Models, RealModel, ::testing::ValuesIn(kModels));

// Options of a supported op against the case's params (written independently by the suite's generator).
void expect_options_match(const Op& op, const json& p) {
  auto act = [](Activation a) {
    const char* names[] = {"NONE", "RELU", "RELU_N1_TO_1", "RELU6"};
    return std::string(names[static_cast<int>(a)]);
  };
  auto pad = [](Padding x) { return std::string(x == Padding::kSame ? "SAME" : "VALID"); };
  if (const auto* o = options_if<Conv2DOptions>(op)) {
    EXPECT_EQ(pad(o->padding), p["padding"]);
    EXPECT_EQ((std::vector<int>{o->stride_h, o->stride_w}), p["stride_hw"].get<std::vector<int>>());
    EXPECT_EQ((std::vector<int>{o->dilation_h, o->dilation_w}), p["dilation_hw"].get<std::vector<int>>());
    EXPECT_EQ(act(o->activation), p["fused_activation"]);
  } else if (const auto* d = options_if<DepthwiseConv2DOptions>(op)) {
    EXPECT_EQ(pad(d->padding), p["padding"]);
    EXPECT_EQ((std::vector<int>{d->stride_h, d->stride_w}), p["stride_hw"].get<std::vector<int>>());
    EXPECT_EQ((std::vector<int>{d->dilation_h, d->dilation_w}), p["dilation_hw"].get<std::vector<int>>());
    EXPECT_EQ(d->depth_multiplier, p["depth_multiplier"].get<int>());
    EXPECT_EQ(act(d->activation), p["fused_activation"]);
  } else if (const auto* l = options_if<Pool2DOptions>(op)) {
    EXPECT_EQ(pad(l->padding), p["padding"]);
    EXPECT_EQ((std::vector<int>{l->stride_h, l->stride_w}), p["stride_hw"].get<std::vector<int>>());
    EXPECT_EQ((std::vector<int>{l->filter_h, l->filter_w}), p["filter_hw"].get<std::vector<int>>());
    EXPECT_EQ(act(l->activation), p["fused_activation"]);
  } else if (const auto* f = options_if<FullyConnectedOptions>(op)) {
    EXPECT_EQ(act(f->activation), p["fused_activation"]);
    EXPECT_EQ(f->keep_num_dims, p["keep_num_dims"].get<bool>());
  } else if (const auto* a = options_if<FusedActivationOptions>(op)) {
    EXPECT_EQ(act(a->activation), p["fused_activation"]);
  } else if (const auto* s = options_if<SoftmaxOptions>(op)) {
    EXPECT_EQ(s->beta, p["beta"].get<float>());
  } else if (const auto* r = options_if<ReshapeOptions>(op)) {
    if (p.contains("new_shape") && !r->new_shape.empty()) {
      EXPECT_EQ(r->new_shape, p["new_shape"].get<std::vector<int32_t>>());
    }
  }
}

// Every case of the op suite: supported operators read with the right kind, options and I/O shapes;
// the others fail with one "unsupported operators" error naming the suite's operator.
TEST(OpSuite, EveryCaseReadsOrIsRefusedByName) {
  const fs::path dir = kShared / "ops";
  if (!shared_available(dir)) GTEST_SKIP() << dir << " not present";
  std::set<std::string> supported;
  for (int k = 0; k < kOpKindCount; ++k) supported.insert(op_kind_name(static_cast<OpKind>(k)));
  for (const json& entry : load_json(dir / "index.json")) {
    const std::string op_name = entry["op"];
    const fs::path case_dir = dir / entry["path"].get<std::string>();
    SCOPED_TRACE(case_dir.string());
    const json golden = load_json(case_dir / "golden.json");
    if (supported.count(op_name) == 0) {
      try {
        read_tflite_file((case_dir / "model.tflite").string());
        ADD_FAILURE() << "expected an unsupported-operator error";
      } catch (const CompileError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("unsupported operators:\n  op 0: " + op_name + " (code ", 0), 0u)
            << e.what();
      }
      continue;
    }
    const Graph graph = read_tflite_file((case_dir / "model.tflite").string());
    ASSERT_EQ(graph.ops.size(), 1u);
    EXPECT_EQ(op_kind_name(graph.ops[0].kind), op_name);
    expect_options_match(graph.ops[0], golden["params"]);
    expect_window_shapes(graph, graph.ops[0]);
    ASSERT_EQ(graph.inputs.size(), golden["inputs"].size());
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
      EXPECT_EQ(graph.tensor(graph.inputs[i]).shape, golden["inputs"][i]["shape"].get<std::vector<int32_t>>());
    }
    ASSERT_EQ(graph.outputs.size(), golden["outputs"].size());
    for (size_t i = 0; i < graph.outputs.size(); ++i) {
      EXPECT_EQ(graph.tensor(graph.outputs[i]).shape, golden["outputs"][i]["shape"].get<std::vector<int32_t>>());
    }
  }
}

TEST(ReadFile, MissingFileIsACompileError) {
  EXPECT_THROW(read_tflite_file("/nonexistent/model.tflite"), CompileError);
}

}  // namespace
}  // namespace microaot
