// A guard against amplification: a flatbuffer may point many tables at one shared vector, string or
// buffer, so a small file could make the reader copy gigabytes (or loop for hours). Before converting
// anything, add up what the conversion would copy and refuse files that expand far beyond their size.
#include <string>

#include "frontend/tflite_internal.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {

namespace {
template <typename V>
uint64_t bytes_of(const V* vector, uint64_t element_bytes) {
  return vector == nullptr ? 0 : uint64_t{vector->size()} * element_bytes;
}

uint64_t buffer_bytes(const tflite::Model& model, uint32_t index) {
  const auto* buffers = model.buffers();
  if (buffers == nullptr || index >= buffers->size()) return 0;  // refused later, with a clear message
  const tflite::Buffer& buffer = *buffers->Get(index);
  return buffer.offset() > 1 ? buffer.size() : bytes_of(buffer.data(), 1);
}

uint64_t tensor_bytes(const tflite::Model& model, const tflite::Tensor& t) {
  uint64_t total = 64 + bytes_of(t.name(), 1) + bytes_of(t.shape(), 4) + buffer_bytes(model, t.buffer());
  if (const tflite::QuantizationParameters* q = t.quantization()) {
    total += bytes_of(q->scale(), 4) + bytes_of(q->zero_point(), 8);
  }
  return total;
}

uint64_t operator_bytes(const tflite::Model& model, const tflite::Operator& op) {
  uint64_t total = 64 + bytes_of(op.inputs(), 4) + bytes_of(op.outputs(), 4);
  total += bytes_of(op.custom_options(), 1);  // copied to flash for an op bound with --custom-op
  if (const auto* reshape = op.builtin_options_as_ReshapeOptions()) total += bytes_of(reshape->new_shape(), 4);
  const auto* codes = model.operator_codes();
  if (codes != nullptr && op.opcode_index() < codes->size()) {
    total += bytes_of(codes->Get(op.opcode_index())->custom_code(), 1);  // named in unsupported-op errors
  }
  return total;
}
}  // namespace

void check_expansion(const tflite::Model& model, const tflite::SubGraph& subgraph, size_t file_bytes) {
  const uint64_t limit = kMaxExpansion * uint64_t{file_bytes} + (uint64_t{1} << 20);
  uint64_t total = bytes_of(subgraph.inputs(), 4) + bytes_of(subgraph.outputs(), 4);
  if (const auto* tensors = subgraph.tensors()) {
    for (uint32_t i = 0; i < tensors->size() && total <= limit; ++i) total += tensor_bytes(model, *tensors->Get(i));
  }
  if (const auto* ops = subgraph.operators()) {
    for (uint32_t i = 0; i < ops->size() && total <= limit; ++i) total += operator_bytes(model, *ops->Get(i));
  }
  if (total > limit) {
    throw CompileError("malformed .tflite model: its " + std::to_string(file_bytes) +
                       "-byte file refers to more than " + std::to_string(limit) +
                       " bytes of tensors, names and operator lists (shared flatbuffer data used many times)");
  }
}

}  // namespace tflite_detail
}  // namespace microaot
