// The lenient read behind `inspect`: the flatbuffer verified and its expansion bounded as for a compile,
// then operators and tensors copied as stored, without the checks that would refuse a model microaot
// cannot compile (unsupported operators or types).
#include <algorithm>
#include <cctype>
#include <cstring>

#include "frontend/tflite_internal.h"
#include "frontend/tflite_reader.h"

namespace microaot {

namespace {
using namespace tflite_detail;

std::vector<int> indices(const flatbuffers::Vector<int32_t>* list) {
  return list == nullptr ? std::vector<int>() : std::vector<int>(list->begin(), list->end());
}

uint64_t buffer_size(const tflite::Model& model, uint32_t index) {
  const auto* buffers = model.buffers();
  if (index == 0 || buffers == nullptr || index >= buffers->size()) return 0;
  const tflite::Buffer& buffer = *buffers->Get(index);
  if (buffer.offset() > 1) return buffer.size();
  return buffer.data() ? buffer.data()->size() : 0;
}

Quantization quantization_of(const tflite::Tensor& src) {
  Quantization q;
  const tflite::QuantizationParameters* params = src.quantization();
  if (params == nullptr || params->scale() == nullptr) return q;
  q.scale.assign(params->scale()->begin(), params->scale()->end());
  // Zero points by memcpy: the verifier guarantees 4-byte alignment only (convert_quantization refuses
  // misaligned ones; here any file is shown).
  const auto* zero_points = params->zero_point();
  for (uint32_t i = 0; zero_points != nullptr && i < zero_points->size(); ++i) {
    int64_t value = 0;
    std::memcpy(&value, zero_points->Data() + i * sizeof(int64_t), sizeof value);
    q.zero_point.push_back(value);
  }
  q.zero_point.resize(q.scale.size(), 0);
  q.axis = params->quantized_dimension();
  return q;
}

ModelOutline::Tensor tensor_of(const tflite::Model& model, const tflite::Tensor& src) {
  ModelOutline::Tensor t;
  t.name = src.name() ? src.name()->str() : "";
  t.type = tensor_type_name(src.type());
  std::transform(t.type.begin(), t.type.end(), t.type.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  if (src.shape()) t.shape.assign(src.shape()->begin(), src.shape()->end());
  t.constant_bytes = buffer_size(model, src.buffer());
  t.quant = quantization_of(src);
  return t;
}
}  // namespace

ModelOutline outline_tflite(const std::vector<uint8_t>& bytes) {
  const tflite::Model& model = verify_model(bytes);
  const tflite::SubGraph& subgraph = main_subgraph(model);
  check_expansion(model, subgraph, bytes.size());
  ModelOutline outline;
  if (model.description() != nullptr) outline.description = model.description()->str();
  outline.inputs = indices(subgraph.inputs());
  outline.outputs = indices(subgraph.outputs());
  for (uint32_t i = 0; subgraph.tensors() && i < subgraph.tensors()->size(); ++i) {
    outline.tensors.push_back(tensor_of(model, *subgraph.tensors()->Get(i)));
  }
  for (uint32_t i = 0; subgraph.operators() && i < subgraph.operators()->size(); ++i) {
    const tflite::Operator& op = *subgraph.operators()->Get(i);
    const tflite::OperatorCode& code = opcode_of(model, op, i);
    outline.ops.push_back({operator_code_name(code), builtin_code(code), code.version(),
                           is_compilable_code(builtin_code(code)), indices(op.inputs()), indices(op.outputs())});
  }
  return outline;
}

}  // namespace microaot
