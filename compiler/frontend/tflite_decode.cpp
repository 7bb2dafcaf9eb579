// TensorFlow Lite Micro's compressed models (tensorflow/lite/micro/compression in tflite-micro): a constant is
// stored as bit-packed indices into value tables, and a custom operator TFLM_DECODE, inserted before each
// consumer, expands it at run time into a scratch tensor. Here each DECODE output is decoded once, at compile
// time, into the constant it stands for (exact: the values TFLM's DECODE writes), and the DECODE disappears; the
// consumer's lowering then stores int8 weights as palettes decoded inside its kernel (ops/palette_weights.h), or
// keeps the constant plain (network_info.txt states which). The format, as TFLM documents it:
//   inputs     pairs (encoded, ancillary), one per output: constant UINT8 tensors
//   ancillary  16-byte header: byte 0 decode type (0 look-up table, 1 Huffman, 2 pruning, 128-255 custom),
//              byte 1 header version (1); for the table kind byte 4 its version (1), byte 5 bits 0-2 the index
//              width (1..7), byte 6 the table stride (elements per channel); from byte 16 the value tables,
//              one per channel (stride elements each, in the output's type) or one for a tensor quantized per
//              tensor
//   encoded    the indices, in the tensor's element order, most significant bit first, padded to a byte;
//              channels along the quantization axis (0, or the last dimension)
#include <algorithm>
#include <cstring>
#include <string>

#include "frontend/builtin_names.h"
#include "frontend/tflite_internal.h"
#include "ir/dtype.h"
#include "support/diagnostics.h"

namespace microaot {
namespace tflite_detail {
namespace {

constexpr char kDecodeName[] = "TFLM_DECODE";
constexpr size_t kHeaderBytes = 16;
constexpr int kLookUpTable = 0;

std::string decode_type_name(int type) {
  if (type == 1) return "Huffman";
  if (type == 2) return "pruning";
  if (type >= 128) return "custom (" + std::to_string(type) + ")";
  return "unknown (" + std::to_string(type) + ")";
}

// A constant UINT8 input of the DECODE, or CompileError.
const Tensor& byte_input(const Graph& graph, int id, const std::string& role, const std::string& where) {
  const Tensor& t = graph.tensor(id);
  if (!t.is_constant || t.dtype != DType::kUInt8) {
    throw CompileError(where + ": its " + role + " input " + describe_tensor(graph, id) +
                       " is not a constant UINT8 tensor: not a TFLM-compressed model microaot can read");
  }
  return t;
}

struct LutHeader {
  int bits = 0;
  size_t stride = 0;
};

// The look-up-table header of `ancillary`, checked; CompileError naming the tensor and what is wrong.
LutHeader read_header(const Tensor& ancillary, const std::string& tensor, const std::string& where) {
  const std::vector<uint8_t>& a = ancillary.data;
  const std::string what = where + " (decoding '" + tensor + "'): ";
  if (a.size() < kHeaderBytes) {
    throw CompileError(what + "its ancillary data holds " + std::to_string(a.size()) + " bytes, less than the " +
                       std::to_string(kHeaderBytes) + "-byte header");
  }
  if (a[0] != kLookUpTable) {
    throw CompileError(what + "the " + decode_type_name(a[0]) +
                       " kind of TFLM compression is not supported (microaot reads the look-up-table kind): "
                       "compress this tensor with a look-up table, or compile the uncompressed model");
  }
  if (a[1] != 1 || a[4] != 1) {
    throw CompileError(what + "header version " + std::to_string(a[1]) + ", table version " + std::to_string(a[4]) +
                       "; microaot reads version 1 of both");
  }
  LutHeader h{a[5] & 7, a[6]};
  if (h.bits == 0) throw CompileError(what + "an index width of 0 bits (the header's byte 5 takes 1 to 7)");
  if (h.stride == 0) throw CompileError(what + "a value table stride of 0 (the header's byte 6: entries per table)");
  return h;
}

// The output's channels and whether they run along its last axis (TFLM: quantized per channel on axis 0 or the
// last; else one table).
struct Channels {
  int64_t count = 1;
  bool last_axis = false;
};

Channels channels_of(const Graph& graph, int id, const std::string& what) {
  const Tensor& out = graph.tensor(id);
  if (!out.quant.per_channel()) return {};
  const auto axis = static_cast<size_t>(out.quant.axis);
  const bool last = axis + 1 == out.shape.size() && axis != 0;
  if ((axis != 0 && !last) || axis >= out.shape.size() ||
      static_cast<int64_t>(out.quant.scale.size()) != out.shape[axis]) {
    throw CompileError(what + "the output " + describe_tensor(graph, id) + " is quantized per channel along axis " +
                       std::to_string(out.quant.axis) +
                       ", which TFLM's tables do not take (axis 0 or the last, one scale per channel)");
  }
  return {static_cast<int64_t>(out.quant.scale.size()), last};
}

// Index `e` of the packed, most-significant-bit-first indices.
uint32_t index_at(const std::vector<uint8_t>& packed, int64_t e, int bits) {
  uint32_t index = 0;
  for (int b = 0; b < bits; ++b) {
    const auto bit = static_cast<size_t>(e * bits + b);
    index = (index << 1) | ((packed[bit / 8] >> (7 - bit % 8)) & 1u);
  }
  return index;
}

// Decodes one (encoded, ancillary) pair into output `out_id`, which becomes a constant.
void decode_pair(Graph& graph, int encoded_id, int ancillary_id, int out_id, const std::string& where) {
  const Tensor& encoded = byte_input(graph, encoded_id, "encoded", where);
  const Tensor& ancillary = byte_input(graph, ancillary_id, "ancillary", where);
  Tensor& out = graph.tensor(out_id);
  const std::string what = where + " (decoding '" + out.name + "'): ";
  const bool is_input = std::find(graph.inputs.begin(), graph.inputs.end(), out_id) != graph.inputs.end();
  if (out.is_constant || is_input || out.dtype == DType::kUnsupported || out.dtype == DType::kUInt8) {
    throw CompileError(what + "its output " + describe_tensor(graph, out_id) +
                       " is not a tensor TFLM's DECODE writes (a constant, a graph input, or of a type it does not decode)");
  }
  const LutHeader h = read_header(ancillary, out.name, where);
  const Channels ch = channels_of(graph, out_id, what);
  const int64_t count = out.num_elements();
  const auto packed_bytes = static_cast<size_t>((count * h.bits + 7) / 8);
  if (encoded.data.size() != packed_bytes) {
    throw CompileError(what + "the encoded tensor " + describe_tensor(graph, encoded_id) + " holds " +
                       std::to_string(encoded.data.size()) + " bytes, but the output's " + std::to_string(count) +
                       " elements at " + std::to_string(h.bits) + " bits take " + std::to_string(packed_bytes) +
                       " (a wrong index width, or an output shape that does not match the encoded data)");
  }
  const size_t element = dtype_size(out.dtype);
  const size_t table_bytes = static_cast<size_t>(ch.count) * h.stride * element;
  if (ancillary.data.size() < kHeaderBytes + table_bytes) {
    throw CompileError(what + "the value tables hold " + std::to_string(ancillary.data.size() - kHeaderBytes) +
                       " bytes, but " + std::to_string(ch.count) + " table(s) of " + std::to_string(h.stride) +
                       " entries of " + std::to_string(element) + " bytes take " + std::to_string(table_bytes));
  }
  const uint8_t* tables = ancillary.data.data() + kHeaderBytes;
  std::vector<uint8_t> data(static_cast<size_t>(count) * element);
  const int64_t per_channel = count / ch.count;
  for (int64_t e = 0; e < count; ++e) {
    const uint32_t index = index_at(encoded.data, e, h.bits);
    if (index >= h.stride) {
      throw CompileError(what + "element " + std::to_string(e) + " has index " + std::to_string(index) +
                         ", past its table of " + std::to_string(h.stride) + " entries");
    }
    const int64_t channel = ch.last_axis ? e % ch.count : e / per_channel;
    std::memcpy(&data[static_cast<size_t>(e) * element],
                tables + (static_cast<size_t>(channel) * h.stride + index) * element, element);
  }
  out.data = std::move(data);
  out.is_constant = true;
  out.lut_bits = h.bits;
  out.lut_bytes = static_cast<int64_t>(encoded.data.size() + ancillary.data.size());
}

}  // namespace

bool is_tflm_decode(const tflite::OperatorCode& code) {
  const flatbuffers::String* name = code.custom_code();
  return builtin_code(code) == kTfliteCustomCode && name != nullptr && name->size() == sizeof kDecodeName - 1 &&
         std::memcmp(name->data(), kDecodeName, sizeof kDecodeName - 1) == 0;
}

void fold_tflm_decodes(const tflite::Model& model, const tflite::SubGraph& subgraph, Graph& graph) {
  const auto* operators = subgraph.operators();
  for (uint32_t i = 0; operators != nullptr && i < operators->size(); ++i) {
    const tflite::Operator& op = *operators->Get(i);
    if (!is_tflm_decode(opcode_of(model, op, i))) continue;
    const std::string where = "op " + std::to_string(i) + " (TFLM_DECODE)";
    const size_t inputs = op.inputs() != nullptr ? op.inputs()->size() : 0;
    const size_t outputs = op.outputs() != nullptr ? op.outputs()->size() : 0;
    if (outputs == 0 || inputs != 2 * outputs) {
      throw CompileError("malformed TFLM-compressed model: " + where + " has " + std::to_string(inputs) +
                         " inputs for " + std::to_string(outputs) +
                         " outputs (it takes an encoded and an ancillary tensor per output)");
    }
    for (uint32_t o = 0; o < outputs; ++o) {
      const int ids[3] = {op.inputs()->Get(2 * o), op.inputs()->Get(2 * o + 1), op.outputs()->Get(o)};
      for (int id : ids) {
        if (id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) {
          throw CompileError("malformed .tflite model: " + where + " names tensor index " + std::to_string(id) +
                             ", but the subgraph has " + std::to_string(graph.tensors.size()) + " tensors");
        }
      }
      decode_pair(graph, ids[0], ids[1], ids[2], where);
    }
  }
}

}  // namespace tflite_detail
}  // namespace microaot
