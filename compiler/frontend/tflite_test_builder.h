// Test helper: builds small .tflite models with the flatbuffers builder from a plain description, so that
// reader tests can make valid models and then break exactly one thing in them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tflite_schema_generated.h"

namespace microaot {
namespace tflite_test {

struct TensorSpec {
  std::string name;
  tflite::TensorType type = tflite::TensorType::INT8;
  std::vector<int32_t> shape;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t axis = 0;
  std::vector<uint8_t> data;  // inline constant bytes; empty for activations
  uint64_t offset = 0;        // external data (offset > 1), relative to the start of the file
  uint64_t size = 0;
  bool variable = false;
  bool sparse = false;  // writes an (empty) sparsity table
};

using OptionsFn = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

struct OpSpec {
  int code = 9;  // builtin code; 32 = custom
  int version = 1;
  std::string custom;
  std::vector<uint8_t> custom_options;  // a CUSTOM op's options bytes (none when empty)
  std::vector<int32_t> inputs, outputs;
  tflite::BuiltinOptions options_type = tflite::BuiltinOptions::NONE;
  OptionsFn options;
};

// A subgraph after the main one (an initialisation subgraph CALL_ONCE names): no inputs or outputs.
struct SubgraphSpec {
  std::vector<TensorSpec> tensors;
  std::vector<OpSpec> ops;
};

struct ModelSpec {
  std::vector<TensorSpec> tensors;
  std::vector<OpSpec> ops;
  std::vector<int32_t> inputs, outputs;
  uint32_t version = 3;
  bool identifier = true;
  std::vector<SubgraphSpec> subgraphs;  // subgraphs 1, 2, ... after the main one
  int extra_subgraphs = 0;  // empty subgraphs after those
  std::vector<std::string> metadata;  // names of metadata entries (their buffer is 0)
};

// Op i of the subgraph uses operator code `first_code + i`.
inline flatbuffers::Offset<tflite::SubGraph> build_subgraph(flatbuffers::FlatBufferBuilder& fbb, const SubgraphSpec& spec,
                                                            const std::vector<int32_t>& inputs,
                                                            const std::vector<int32_t>& outputs, size_t first_code,
                                                            std::vector<flatbuffers::Offset<tflite::Buffer>>& buffers) {
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors;
  for (const TensorSpec& t : spec.tensors) {
    uint32_t buffer = 0;
    if (!t.data.empty() || t.offset != 0) {
      buffer = static_cast<uint32_t>(buffers.size());
      buffers.push_back(tflite::CreateBufferDirect(fbb, t.data.empty() ? nullptr : &t.data, t.offset, t.size));
    }
    auto quant = tflite::CreateQuantizationParameters(fbb, fbb.CreateVector(t.scale), fbb.CreateVector(t.zero_point),
                                                      tflite::QuantizationDetails::NONE, 0, t.axis);
    auto sparsity = t.sparse ? tflite::CreateSparsityParameters(fbb) : flatbuffers::Offset<tflite::SparsityParameters>();
    tensors.push_back(tflite::CreateTensor(fbb, fbb.CreateVector(t.shape), t.type, buffer, fbb.CreateString(t.name),
                                           quant, t.variable, sparsity));
  }
  std::vector<flatbuffers::Offset<tflite::Operator>> ops;
  for (size_t i = 0; i < spec.ops.size(); ++i) {
    const OpSpec& op = spec.ops[i];
    auto options = op.options ? op.options(fbb) : flatbuffers::Offset<void>();
    auto custom_options = op.custom_options.empty() ? 0 : fbb.CreateVector(op.custom_options);
    ops.push_back(tflite::CreateOperator(fbb, static_cast<uint32_t>(first_code + i), fbb.CreateVector(op.inputs),
                                         fbb.CreateVector(op.outputs), op.options_type, options, custom_options));
  }
  return tflite::CreateSubGraph(fbb, fbb.CreateVector(tensors), fbb.CreateVector(inputs), fbb.CreateVector(outputs),
                                fbb.CreateVector(ops));
}

// One operator code per op (op i of the main subgraph uses code i, the further subgraphs' ops the codes after
// those); codes above 127 put the placeholder 127 in the byte field.
inline std::vector<uint8_t> build_model(const ModelSpec& spec) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers = {tflite::CreateBuffer(fbb)};
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes;
  std::vector<const OpSpec*> all_ops;
  for (const OpSpec& op : spec.ops) all_ops.push_back(&op);
  for (const SubgraphSpec& sub : spec.subgraphs) {
    for (const OpSpec& op : sub.ops) all_ops.push_back(&op);
  }
  for (const OpSpec* each : all_ops) {
    const OpSpec& op = *each;
    auto custom = op.custom.empty() ? flatbuffers::Offset<flatbuffers::String>() : fbb.CreateString(op.custom);
    codes.push_back(tflite::CreateOperatorCode(fbb, static_cast<int8_t>(std::min(op.code, 127)), custom, op.version,
                                               op.code));
  }
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs = {
      build_subgraph(fbb, {spec.tensors, spec.ops}, spec.inputs, spec.outputs, 0, buffers)};
  size_t first_code = spec.ops.size();
  for (const SubgraphSpec& sub : spec.subgraphs) {
    subgraphs.push_back(build_subgraph(fbb, sub, {}, {}, first_code, buffers));
    first_code += sub.ops.size();
  }
  for (int i = 0; i < spec.extra_subgraphs; ++i) subgraphs.push_back(tflite::CreateSubGraph(fbb));
  std::vector<flatbuffers::Offset<tflite::Metadata>> metadata;
  for (const std::string& name : spec.metadata) metadata.push_back(tflite::CreateMetadata(fbb, fbb.CreateString(name)));
  auto model = tflite::CreateModel(fbb, spec.version, fbb.CreateVector(codes), fbb.CreateVector(subgraphs),
                                   fbb.CreateString("test model"), fbb.CreateVector(buffers),
                                   metadata.empty() ? 0 : fbb.CreateVector(metadata));
  if (spec.identifier) {
    tflite::FinishModelBuffer(fbb, model);
  } else {
    fbb.Finish(model);
  }
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

inline TensorSpec activation(const std::string& name, std::vector<int32_t> shape, float scale, int64_t zero_point) {
  TensorSpec t;
  t.name = name;
  t.shape = std::move(shape);
  t.scale = {scale};
  t.zero_point = {zero_point};
  return t;
}

inline TensorSpec constant(const std::string& name, tflite::TensorType type, std::vector<int32_t> shape,
                           std::vector<float> scale, std::vector<uint8_t> data) {
  TensorSpec t;
  t.name = name;
  t.type = type;
  t.shape = std::move(shape);
  t.zero_point.assign(scale.size(), 0);
  t.scale = std::move(scale);
  t.data = std::move(data);
  return t;
}

inline OpSpec op(int code, int version, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                 const std::string& custom = "") {
  OpSpec o;
  o.code = code;
  o.version = version;
  o.custom = custom;
  o.inputs = std::move(inputs);
  o.outputs = std::move(outputs);
  return o;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// A float32 tensor without quantization: a constant when `data` is given.
inline TensorSpec float_tensor(const std::string& name, std::vector<int32_t> shape, std::vector<float> data = {}) {
  TensorSpec t;
  t.name = name;
  t.type = tflite::TensorType::FLOAT32;
  t.shape = std::move(shape);
  t.data = bytes_of(data);
  return t;
}

// input 'in' [1,4] int8 -> FULLY_CONNECTED (weights [2,4] per channel, bias [2] int32, RELU) -> 'out' [1,2].
inline ModelSpec small_fc_model() {
  ModelSpec m;
  m.tensors = {
      activation("in", {1, 4}, 0.5f, -1),
      constant("weights", tflite::TensorType::INT8, {2, 4}, {0.25f, 0.125f},
               bytes_of<int8_t>({1, 2, 3, 4, -1, -2, -3, -4})),
      constant("bias", tflite::TensorType::INT32, {2}, {0.125f, 0.0625f}, bytes_of<int32_t>({100, -7})),
      activation("out", {1, 2}, 1.5f, 3),
  };
  OpSpec fc = op(9, 4, {0, 1, 2}, {3});
  fc.options_type = tflite::BuiltinOptions::FullyConnectedOptions;
  fc.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return tflite::CreateFullyConnectedOptions(fbb, tflite::ActivationFunctionType::RELU).Union();
  };
  m.ops = {fc};
  m.inputs = {0};
  m.outputs = {3};
  return m;
}

// small_fc_model() with four units, which the packed kernels take on a DSP target (they take four or more).
inline ModelSpec small_packed_fc_model() {
  ModelSpec m = small_fc_model();
  m.tensors[1] = constant("weights", tflite::TensorType::INT8, {4, 4}, {0.25f}, std::vector<uint8_t>(16, 2));
  m.tensors[2] = constant("bias", tflite::TensorType::INT32, {4}, {0.125f}, bytes_of<int32_t>({1, 2, 3, 4}));
  m.tensors[3] = activation("out", {1, 4}, 1.5f, 3);
  return m;
}

}  // namespace tflite_test
}  // namespace microaot
