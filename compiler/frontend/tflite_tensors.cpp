// Tensors of the main subgraph -> IR tensors: element type, shape, quantization and constant bytes, each
// checked against the others before anything downstream trusts them.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "frontend/tflite_internal.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {

namespace {
using tflite::TensorType;

// The IR type of a format type; kUnsupported for types the IR has no kernels for.
DType ir_dtype(TensorType type) {
  switch (type) {
    case TensorType::FLOAT32: return DType::kFloat32;
    case TensorType::INT8: return DType::kInt8;
    case TensorType::INT4: return DType::kInt8;  // constant weights, unpacked (unpack_int4)
    case TensorType::UINT8: return DType::kUInt8;
    case TensorType::INT16: return DType::kInt16;
    case TensorType::INT32: return DType::kInt32;
    case TensorType::INT64: return DType::kInt64;
    case TensorType::BOOL: return DType::kBool;
    default: return DType::kUnsupported;
  }
}

std::string shape_text(const std::vector<int32_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

void convert_shape(const tflite::Tensor& src, Graph& graph, int id) {
  Tensor& t = graph.tensors[id];
  if (src.shape() != nullptr && src.shape()->size() > kMaxRank) {
    throw CompileError("tensor " + describe_tensor(graph, id) + " has " + std::to_string(src.shape()->size()) +
                       " dimensions; microaot supports up to " + std::to_string(kMaxRank));
  }
  if (src.shape() != nullptr) t.shape.assign(src.shape()->begin(), src.shape()->end());
  int64_t elements = 1;  // stays below 2^31 * 2^31, so the products below cannot overflow
  for (int32_t dim : t.shape) {
    if (dim < 0) {
      throw CompileError("tensor " + describe_tensor(graph, id) + " has shape " + shape_text(t.shape) +
                         " with an unknown (negative) dimension; microaot needs static shapes");
    }
    elements *= dim;
    if (elements > kMaxTensorBytes) break;
  }
  const int64_t element_bytes = t.dtype == DType::kUnsupported ? 1 : static_cast<int64_t>(dtype_size(t.dtype));
  if (elements > kMaxTensorBytes || elements * element_bytes > kMaxTensorBytes) {
    throw CompileError("tensor " + describe_tensor(graph, id) + " with shape " + shape_text(t.shape) +
                       " has 2 GiB or more; microaot's limit is 2 GiB - 1 byte per tensor");
  }
}

// Zero points and scales as TFLM reads them: quantization counts only when both vectors are non-empty,
// and one zero point serves every channel. Other mismatched counts are ambiguous and refused.
void convert_zero_points(const tflite::QuantizationParameters& q, const std::string& name, Tensor& t) {
  const size_t scales = q.scale()->size(), zero_points = q.zero_point()->size();
  // The verifier (flatbuffers 2.0) checks only 4-byte alignment of vectors; int64 reads need 8.
  if (reinterpret_cast<uintptr_t>(q.zero_point()->data()) % alignof(int64_t) != 0) {
    throw CompileError("malformed .tflite model: the zero points of " + name + " are misaligned");
  }
  if (zero_points != scales && zero_points != 1) {
    throw CompileError(name + " has " + std::to_string(scales) + " quantization scales but " +
                       std::to_string(zero_points) + " zero points");
  }
  for (int64_t zero_point : *q.zero_point()) {
    // TFLM would truncate it to int32, computing with another zero point than the file's.
    if (zero_point < std::numeric_limits<int32_t>::min() || zero_point > std::numeric_limits<int32_t>::max()) {
      throw CompileError(name + " has zero point " + std::to_string(zero_point) + ", outside the int32 range");
    }
    t.quant.zero_point.push_back(zero_point);
  }
  const int64_t first = t.quant.zero_point[0];  // a copy: resize may reallocate what it would refer to
  t.quant.zero_point.resize(scales, first);
}

// The per-channel axis. A 1-D tensor (a bias) has only axis 0, whatever quantized_dimension says: some
// converters copy the weights' dimension there and TFLM never reads it.
void convert_axis(const tflite::QuantizationParameters& q, const std::string& name, Tensor& t) {
  const size_t scales = t.quant.scale.size();
  const int32_t axis = t.shape.size() == 1 ? 0 : q.quantized_dimension();
  const bool axis_in_range = axis >= 0 && static_cast<size_t>(axis) < t.shape.size();
  if (scales > 1) {
    if (!axis_in_range) {
      throw CompileError(name + " is quantized per channel along dimension " + std::to_string(axis) +
                         ", but its shape is " + shape_text(t.shape));
    }
    if (static_cast<size_t>(t.shape[axis]) != scales) {
      throw CompileError(name + " has " + std::to_string(scales) + " per-channel scales but dimension " +
                         std::to_string(axis) + " of shape " + shape_text(t.shape) + " has size " +
                         std::to_string(t.shape[axis]));
    }
  }
  t.quant.axis = axis_in_range ? axis : 0;  // per-tensor: the axis is meaningless, keep it valid
}

void convert_quantization(const tflite::Tensor& src, Graph& graph, int id) {
  const tflite::QuantizationParameters* q = src.quantization();
  if (q == nullptr) return;
  const std::string name = "tensor " + describe_tensor(graph, id);
  // TFLM ignores the details and would read custom-encoded values as plain affine ones.
  if (q->details_type() != tflite::QuantizationDetails::NONE) {
    throw CompileError(name + " uses custom quantization, which microaot does not support");
  }
  // Converters write empty tables for float tensors; TFLM also drops a table missing either vector.
  if (q->scale() == nullptr || q->scale()->size() == 0 || q->zero_point() == nullptr || q->zero_point()->size() == 0) {
    return;
  }
  Tensor& t = graph.tensors[id];
  for (float scale : *q->scale()) {
    // TFLM would compute with it; every result it touches would be meaningless.
    if (!std::isfinite(scale)) throw CompileError(name + " has a quantization scale that is not finite");
    t.quant.scale.push_back(scale);
  }
  convert_zero_points(*q, name, t);
  convert_axis(*q, name, t);
}

// Buffer `index` of tensor `id`, checked to exist; nullptr for buffer 0, the format's empty sentinel.
const tflite::Buffer* buffer_at(const tflite::Model& model, uint32_t index, const Graph& graph, int id) {
  if (index == 0) return nullptr;
  const auto* buffers = model.buffers();
  if (buffers == nullptr || index >= buffers->size()) {
    throw CompileError("tensor " + describe_tensor(graph, id) + " refers to buffer " + std::to_string(index) +
                       " but the model has " + std::to_string(buffers ? buffers->size() : 0) + " buffers");
  }
  return buffers->Get(index);
}

// The bytes of buffer `index`: inline data, or `size` bytes at `offset` from the start of the file when
// offset > 1 (the format's convention for data stored outside the flatbuffer). Empty when there are none.
// (TFLM reads inline data only; TFLite reads both, as here.)
std::vector<uint8_t> buffer_bytes(const tflite::Model& model, uint32_t index, const std::vector<uint8_t>& file,
                                  const Graph& graph, int id) {
  const tflite::Buffer* found = buffer_at(model, index, graph, id);
  if (found == nullptr) return {};
  const tflite::Buffer& buffer = *found;
  const size_t inline_size = buffer.data() ? buffer.data()->size() : 0;
  if (buffer.offset() <= 1) {
    if (inline_size == 0) return {};
    return std::vector<uint8_t>(buffer.data()->begin(), buffer.data()->end());
  }
  if (inline_size != 0) {  // TFLM would take the inline bytes, TFLite the external ones
    throw CompileError("buffer " + std::to_string(index) + " of tensor " + describe_tensor(graph, id) +
                       " has both inline data and an external offset");
  }
  const uint64_t offset = buffer.offset(), size = buffer.size();
  if (offset > file.size() || size > file.size() - offset) {
    throw CompileError("buffer " + std::to_string(index) + " of tensor " + describe_tensor(graph, id) +
                       " lies outside the file (offset " + std::to_string(offset) + ", size " +
                       std::to_string(size) + ", file size " + std::to_string(file.size()) + ")");
  }
  return std::vector<uint8_t>(file.begin() + static_cast<ptrdiff_t>(offset),
                              file.begin() + static_cast<ptrdiff_t>(offset + size));
}

// NaN weights have no C literal and no meaning; infinities are kept (INFINITY in the generated C).
void check_no_nan(const Graph& graph, int id, const std::vector<uint8_t>& data) {
  for (size_t i = 0; i + sizeof(float) <= data.size(); i += sizeof(float)) {
    float value;
    std::memcpy(&value, data.data() + i, sizeof value);
    if (std::isnan(value)) {
      throw CompileError("constant tensor " + describe_tensor(graph, id) + " holds NaN at element " +
                         std::to_string(i / sizeof(float)));
    }
  }
}

// TFLite's int4 weights, two a byte, the lower nibble first, each sign-extended: as int8 bytes. TFLM unpacks them
// the same way into scratch before its int8 kernels run; here it happens once, at compile time.
std::vector<uint8_t> unpack_int4(const std::vector<uint8_t>& packed, const Graph& graph, int id) {
  const Tensor& t = graph.tensors[id];
  const int64_t elements = t.num_elements();
  if (static_cast<int64_t>(packed.size()) != (elements + 1) / 2) {
    throw CompileError("constant int4 tensor " + describe_tensor(graph, id) + " holds " + std::to_string(packed.size()) +
                       " bytes, but its shape " + shape_text(t.shape) + " packs into " +
                       std::to_string((elements + 1) / 2));
  }
  std::vector<uint8_t> values(static_cast<size_t>(elements));
  for (size_t i = 0; i < values.size(); ++i) {
    const int nibble = (packed[i / 2] >> (i % 2 == 0 ? 0 : 4)) & 0xF;
    values[i] = static_cast<uint8_t>(static_cast<int8_t>(nibble >= 8 ? nibble - 16 : nibble));
  }
  return values;
}

void convert_data(const tflite::Model& model, const tflite::Tensor& src, const std::vector<uint8_t>& file,
                  Graph& graph, int id) {
  std::vector<uint8_t> data = buffer_bytes(model, src.buffer(), file, graph, id);
  if (src.type() == TensorType::INT4 && (data.empty() || src.is_variable())) {
    throw CompileError("tensor " + describe_tensor(graph, id) +
                       " is int4 without constant data; int4 is read for constant weights only, as in TFLM");
  }
  if (data.empty()) return;
  if (src.type() == TensorType::INT4) data = unpack_int4(data, graph, id);
  Tensor& t = graph.tensors[id];
  // TFLM ignores sparsity and the size and would read the stored values as dense ones.
  if (src.sparsity() != nullptr) {
    throw CompileError("tensor " + describe_tensor(graph, id) + " is stored sparse, which microaot does not support");
  }
  if (t.dtype != DType::kUnsupported && static_cast<int64_t>(data.size()) != t.byte_size()) {
    throw CompileError("constant tensor " + describe_tensor(graph, id) + " holds " + std::to_string(data.size()) +
                       " bytes, but its shape " + shape_text(t.shape) + " of " + dtype_name(t.dtype) +
                       " needs " + std::to_string(t.byte_size()));
  }
  if (t.dtype == DType::kFloat32) check_no_nan(graph, id, data);
  t.is_constant = true;
  t.data = std::move(data);
}

// A variable tensor (SVDF's and LSTM's state) keeps its bytes from run to run, in the persistent region.
// TFLM gives it fresh memory and resets it on AllocateTensors and Reset: every byte the zero point for int8,
// zero otherwise; a buffer the file may hold is ignored.
void make_variable(Tensor& t) {
  const bool int8 = t.dtype == DType::kInt8 && !t.quant.zero_point.empty();
  const int64_t reset_value = int8 ? t.quant.zero_point[0] : 0;
  t.is_constant = false;
  t.is_persistent = true;
  t.data.assign(static_cast<size_t>(t.byte_size()), static_cast<uint8_t>(static_cast<int8_t>(reset_value)));
}

// Tensors the subgraph's inputs, outputs or operators list; indices out of range are refused later.
std::vector<bool> mentioned_tensors(const tflite::SubGraph& subgraph, size_t count) {
  std::vector<bool> mentioned(count, false);
  const auto mark = [&](const flatbuffers::Vector<int32_t>* list) {
    for (uint32_t i = 0; list != nullptr && i < list->size(); ++i) {
      const int32_t id = list->Get(i);
      if (id >= 0 && static_cast<size_t>(id) < count) mentioned[id] = true;
    }
  };
  mark(subgraph.inputs());
  mark(subgraph.outputs());
  for (uint32_t i = 0; subgraph.operators() != nullptr && i < subgraph.operators()->size(); ++i) {
    mark(subgraph.operators()->Get(i)->inputs());
    mark(subgraph.operators()->Get(i)->outputs());
  }
  return mentioned;
}
}  // namespace

const char* tensor_type_name(TensorType type) {
  const char* name = tflite::EnumNameTensorType(type);
  return *name ? name : "unknown";
}

void convert_tensors(const tflite::Model& model, const tflite::SubGraph& subgraph, const std::vector<uint8_t>& file,
                     Graph& graph) {
  const auto* tensors = subgraph.tensors();
  const size_t count = tensors ? tensors->size() : 0;
  graph.tensors.resize(count);
  const std::vector<bool> mentioned = mentioned_tensors(subgraph, count);
  for (size_t i = 0; i < count; ++i) {
    const tflite::Tensor& src = *tensors->Get(i);
    const int id = static_cast<int>(i);
    Tensor& t = graph.tensors[i];
    t.name = src.name() ? src.name()->str() : "";
    t.source_index = id;
    t.dtype = ir_dtype(src.type());
    // TFLM converts the type of every tensor, mentioned or not, and refuses types it does not know.
    if (*tflite::EnumNameTensorType(src.type()) == '\0') {
      throw CompileError("tensor " + describe_tensor(graph, id) + " has unknown element type " +
                         std::to_string(static_cast<int>(src.type())));
    }
    // TFLM also sizes every tensor for its arena plan, so an unknown or oversized shape fails there too.
    convert_shape(src, graph, id);
    if (!mentioned[i]) {
      // Nothing reads the rest of it, here or in TFLM: quantization, sparsity and data may be anything.
      buffer_at(model, src.buffer(), graph, id);  // but the file must be well formed
      t.is_dead = true;
      continue;
    }
    convert_quantization(src, graph, id);
    convert_data(model, src, file, graph, id);
    if (src.is_variable()) make_variable(t);
  }
}

}  // namespace tflite_detail
}  // namespace microaot
