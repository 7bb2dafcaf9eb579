// Writes the hand-made hostile inputs of fuzz/regressions/ (refuse-*: each must be refused cleanly;
// accept-*: must compile). Run after changing them: build target microaot_make_hostile_inputs, then
//   build/fuzz/microaot_make_hostile_inputs fuzz/regressions
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "frontend/onnx_test_util.h"
#include "frontend/tflite_test_builder.h"
#include "frontend/tflm_compress_test_util.h"
#include "onnx/onnx_pb.h"

namespace {

using namespace microaot::tflite_test;
using Bytes = std::vector<uint8_t>;
using tflite::TensorType;

ModelSpec float_fc(float weight) {
  ModelSpec m = small_fc_model();
  for (TensorSpec& t : m.tensors) {
    t.type = TensorType::FLOAT32;
    t.scale.clear();
    t.zero_point.clear();
  }
  m.tensors[1].data = bytes_of<float>({1, 2, weight, 4, 5, 6, 7, 8});
  m.tensors[2].data = bytes_of<float>({0.5f, -0.5f});
  return m;
}

// Overwrites the uint32 length of the vector whose elements start at `data` (inside `bytes`).
Bytes with_vector_length(Bytes bytes, const void* data, const Bytes& original, uint32_t length) {
  const size_t at = static_cast<const uint8_t*>(data) - original.data() - 4;
  std::memcpy(bytes.data() + at, &length, 4);
  return bytes;
}

Bytes shared_name_expansion() {
  flatbuffers::FlatBufferBuilder fbb;
  const auto name = fbb.CreateString(std::string(4096, 'n'));
  const auto shape = fbb.CreateVector(std::vector<int32_t>{1});
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
  for (int i = 0; i < 300; ++i) tensors.push_back(tflite::CreateTensor(fbb, shape, TensorType::INT8, 0, name));
  const auto io = fbb.CreateVector(std::vector<int32_t>{0});
  const auto subgraph = tflite::CreateSubGraph(fbb, fbb.CreateVector(tensors), io, io);
  const auto buffers = fbb.CreateVector(std::vector<flatbuffers::Offset<tflite::Buffer>>{tflite::CreateBuffer(fbb)});
  tflite::FinishModelBuffer(fbb, tflite::CreateModel(fbb, 3, 0, fbb.CreateVector(std::vector{subgraph}), 0, buffers));
  return Bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// ONNX: x [1, 2, 4, 4] -> Conv 1x1 (weights w, 3 channels) -> y, as a ModelProto.
onnx::ModelProto onnx_conv() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  for (const auto& [list, name, channels] : {std::tuple{g->mutable_input(), "x", 2}, {g->mutable_output(), "y", 3}}) {
    onnx::ValueInfoProto* v = list->Add();
    v->set_name(name);
    onnx::TypeProto::Tensor* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    for (const int64_t d : {int64_t{1}, int64_t{channels}, int64_t{4}, int64_t{4}}) t->mutable_shape()->add_dim()->set_dim_value(d);
  }
  onnx::TensorProto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  for (const int64_t d : {3, 2, 1, 1}) w->add_dims(d);
  for (int i = 0; i < 6; ++i) w->add_float_data(0.25f * static_cast<float>(i) - 0.5f);
  microaot::onnx_test::add_node(g, "Conv", {"x", "w"}, {"y"});
  return m;
}

Bytes onnx_bytes(const onnx::ModelProto& m) {
  std::string s;
  m.SerializeToString(&s);
  return Bytes(s.begin(), s.end());
}

// The ONNX reader's hostile inputs (docs/onnx.md "Reading"): each refused with a CompileError, nothing written.
void add_onnx_inputs(std::vector<std::pair<std::string, Bytes>>& out) {
  const Bytes valid = onnx_bytes(onnx_conv());
  out.emplace_back("accept-onnx-conv", valid);
  out.emplace_back("refuse-onnx-truncated-half", Bytes(valid.begin(), valid.begin() + valid.size() / 2));
  onnx::ModelProto m = onnx_conv();
  m.mutable_graph()->mutable_initializer(0)->set_data_location(onnx::TensorProto::EXTERNAL);
  out.emplace_back("refuse-onnx-external-data", onnx_bytes(m));
  m = onnx_conv();
  m.mutable_graph()->clear_initializer();
  out.emplace_back("refuse-onnx-missing-initializer", onnx_bytes(m));
  m = onnx_conv();
  m.mutable_graph()->mutable_node(0)->set_input(0, "y");  // the Conv reads its own output
  out.emplace_back("refuse-onnx-cycle", onnx_bytes(m));
  m = onnx_conv();
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(2)->set_dim_value(int64_t{1} << 40);
  out.emplace_back("refuse-onnx-absurd-shape", onnx_bytes(m));
  m = onnx_conv();
  m.mutable_graph()->mutable_node(0)->set_op_type("Adam");  // a training operator
  m.mutable_graph()->mutable_node(0)->set_domain("ai.onnx.preview.training");
  out.emplace_back("refuse-onnx-training-op", onnx_bytes(m));
}

// TFLM's compressed form (frontend/tflite_decode.cpp): the FC's weights behind a TFLM_DECODE, and the same with
// the ancillary data or the shapes broken.
void tflm_compressed(std::vector<std::pair<std::string, Bytes>>& out) {
  ModelSpec good = small_fc_model();
  const auto ancillary = static_cast<size_t>(tflm_compress(good, 1, 3));
  out.emplace_back("accept-tflm-lut-3-bits", build_model(good));
  const std::pair<const char*, std::function<void(ModelSpec&)>> breaks[] = {
      {"refuse-tflm-huffman", [&](ModelSpec& m) { m.tensors[ancillary].data[0] = 1; }},
      {"refuse-tflm-pruning", [&](ModelSpec& m) { m.tensors[ancillary].data[0] = 2; }},
      {"refuse-tflm-version-2", [&](ModelSpec& m) { m.tensors[ancillary].data[1] = 2; }},
      {"refuse-tflm-width-0", [&](ModelSpec& m) { m.tensors[ancillary].data[5] = 0; }},
      {"refuse-tflm-wrong-width", [&](ModelSpec& m) { m.tensors[ancillary].data[5] = 7; }},
      {"refuse-tflm-index-past-table", [&](ModelSpec& m) { m.tensors[ancillary].data[6] = 1; }},
      {"refuse-tflm-tables-short",
       [&](ModelSpec& m) { m.tensors[ancillary].data.resize(17), m.tensors[ancillary].shape = {17}; }},
      {"refuse-tflm-output-shape", [&](ModelSpec& m) { m.tensors.back().shape = {2, 5}; }},
      {"refuse-tflm-one-input", [&](ModelSpec& m) { m.ops[0].inputs.pop_back(); }},
  };
  for (const auto& [name, change] : breaks) {
    ModelSpec m = good;
    change(m);
    out.emplace_back(name, build_model(m));
  }
}

std::vector<std::pair<std::string, Bytes>> inputs() {
  std::vector<std::pair<std::string, Bytes>> out;
  const Bytes valid = build_model(small_fc_model());
  out.emplace_back("accept-small-fc", valid);
  out.emplace_back("refuse-empty", Bytes{});
  out.emplace_back("refuse-zeros-64", Bytes(64, 0));
  Bytes identifier_only(16, 0);
  std::memcpy(identifier_only.data() + 4, "TFL3", 4);
  out.emplace_back("refuse-identifier-only", identifier_only);
  out.emplace_back("refuse-truncated-half", Bytes(valid.begin(), valid.begin() + valid.size() / 2));
  Bytes junk = valid;
  junk.insert(junk.end(), 64, 0xff);
  out.emplace_back("accept-appended-junk", junk);
  const tflite::Model* model = tflite::GetModel(valid.data());
  const auto* sg = model->subgraphs()->Get(0);
  out.emplace_back("refuse-operators-length-ffffffff",
                   with_vector_length(valid, sg->operators()->data(), valid, 0xffffffffu));
  out.emplace_back("refuse-tensors-length-7fffffff",
                   with_vector_length(valid, sg->tensors()->data(), valid, 0x7fffffffu));
  out.emplace_back("refuse-tensors-length-0", with_vector_length(valid, sg->tensors()->data(), valid, 0));
  const auto* weights = model->buffers()->Get(1)->data();
  out.emplace_back("refuse-weights-length-minus-1",
                   with_vector_length(valid, weights->data(), valid, weights->size() - 1));
  out.emplace_back("refuse-nan-weights", build_model(float_fc(std::numeric_limits<float>::quiet_NaN())));
  out.emplace_back("accept-infinite-weights", build_model(float_fc(std::numeric_limits<float>::infinity())));

  ModelSpec m = small_fc_model();
  m.tensors.push_back(activation("mid", {1, 4}, 0.5f, 0));
  m.ops[0].inputs = {4, 1, 2};
  OpSpec back = m.ops[0];
  back.inputs = {3, 1, 2};
  back.outputs = {4};
  m.ops.push_back(back);
  out.emplace_back("refuse-cycle", build_model(m));
  m = small_fc_model();
  m.ops[0].inputs = {3, 1, 2};
  out.emplace_back("refuse-self-read", build_model(m));
  m = small_fc_model();
  m.ops.push_back(m.ops[0]);
  out.emplace_back("refuse-written-twice", build_model(m));
  m = small_fc_model();
  m.ops[0].inputs[1] = 1000;
  out.emplace_back("refuse-tensor-index-1000", build_model(m));
  m = small_fc_model();
  m.tensors[3].shape = {1, -2};
  out.emplace_back("refuse-negative-dimension", build_model(m));
  m.tensors[3].shape = {2, 1024, 1024, 1024};
  out.emplace_back("refuse-2gib-tensor", build_model(m));
  m.tensors[3].shape = std::vector<int32_t>(17, 1);
  out.emplace_back("refuse-rank-17", build_model(m));
  m = small_fc_model();
  m.tensors[0].scale = {0.0f};
  out.emplace_back("refuse-zero-scale", build_model(m));
  m.tensors[0].scale = {std::numeric_limits<float>::infinity()};
  out.emplace_back("refuse-infinite-scale", build_model(m));
  m = small_fc_model();
  m.tensors[1].scale = {0.25f, 0.25f, 0.25f};
  m.tensors[1].zero_point = {0, 0, 0};
  out.emplace_back("refuse-per-channel-count", build_model(m));
  m = small_fc_model();
  m.tensors[3].scale = {1e-30f};
  out.emplace_back("refuse-rescale-shift-97", build_model(m));
  m = small_fc_model();
  m.ops[0].version = 99;
  out.emplace_back("refuse-version-99", build_model(m));
  m = small_fc_model();
  m.tensors[1].data.clear();
  m.tensors[1].offset = 1u << 30;
  m.tensors[1].size = 8;
  out.emplace_back("refuse-buffer-outside-file", build_model(m));
  m = ModelSpec{};
  for (const char* name : {"a", "b", "sum"}) {
    TensorSpec t;
    t.name = name;
    t.type = TensorType::FLOAT32;
    t.shape = {3, 128, 1024, 1024};
    m.tensors.push_back(t);
  }
  m.ops = {op(0, 1, {0, 1}, {2})};
  m.inputs = {0, 1};
  m.outputs = {2};
  out.emplace_back("refuse-arena-4gib", build_model(m));
  out.emplace_back("refuse-shared-name-expansion", shared_name_expansion());
  // Fields TFLite Micro ignores (docs/errors.md): each of these models once was refused.
  m = small_fc_model();
  m.tensors[1].zero_point = {0};
  out.emplace_back("accept-one-zero-point-two-channels", build_model(m));
  m = small_fc_model();
  m.tensors[2].axis = 3;
  out.emplace_back("accept-bias-quantized-dimension-3", build_model(m));
  m = small_fc_model();
  TensorSpec unused = activation("unused", {4}, std::numeric_limits<float>::quiet_NaN(), int64_t{1} << 40);
  unused.data = {1, 2, 3};
  unused.sparse = true;
  m.tensors.push_back(unused);
  out.emplace_back("accept-unmentioned-broken-tensor", build_model(m));
  add_onnx_inputs(out);
  tflm_compressed(out);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  for (const auto& [name, bytes] : inputs()) {
    std::ofstream(std::string(argv[1]) + "/" + name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  return 0;
}
