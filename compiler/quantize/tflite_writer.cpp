#include "quantize/tflite_writer.h"

#include <algorithm>
#include <map>

#include "ops/op_options.h"
#include "ops/svdf.h"
#include "ops/unidirectional_sequence_lstm.h"
#include "support/diagnostics.h"
#include "tflite_schema_generated.h"

namespace microaot {

namespace {
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

tflite::TensorType tensor_type(DType type) {
  switch (type) {
    case DType::kFloat32: return tflite::TensorType::FLOAT32;
    case DType::kInt8: return tflite::TensorType::INT8;
    case DType::kUInt8: return tflite::TensorType::UINT8;
    case DType::kInt16: return tflite::TensorType::INT16;
    case DType::kInt32: return tflite::TensorType::INT32;
    case DType::kInt64: return tflite::TensorType::INT64;
    case DType::kBool: return tflite::TensorType::BOOL;
    case DType::kUnsupported: break;
  }
  throw CompileError("a tensor of unsupported type cannot be written");
}

tflite::ActivationFunctionType activation(Activation a) {
  switch (a) {
    case Activation::kNone: return tflite::ActivationFunctionType::NONE;
    case Activation::kRelu: return tflite::ActivationFunctionType::RELU;
    case Activation::kReluN1To1: return tflite::ActivationFunctionType::RELU_N1_TO_1;
    case Activation::kRelu6: return tflite::ActivationFunctionType::RELU6;
  }
  return tflite::ActivationFunctionType::NONE;
}

tflite::Padding padding(Padding p) { return p == Padding::kSame ? tflite::Padding::SAME : tflite::Padding::VALID; }

template <typename T>
const T& options(const Graph& graph, const Op& op) {
  const T* o = options_if<T>(op);
  if (o == nullptr) throw CompileError(describe_op(graph, op) + ": its options cannot be written");
  return *o;
}

void refuse_explicit_padding(const Graph& graph, const Op& op, bool has) {
  if (has) throw CompileError(describe_op(graph, op) + ": explicit padding cannot be written to a .tflite");
}

struct WrittenOptions {
  tflite::BuiltinOptions type = tflite::BuiltinOptions::NONE;
  Offset<void> table;
};

WrittenOptions conv_options(FlatBufferBuilder& fbb, const Graph& graph, const Op& op) {
  if (op.kind == OpKind::Conv2D) {
    const auto& o = options<Conv2DOptions>(graph, op);
    refuse_explicit_padding(graph, op, o.explicit_padding.has_value());
    return {tflite::BuiltinOptions::Conv2DOptions,
            tflite::CreateConv2DOptions(fbb, padding(o.padding), o.stride_w, o.stride_h, activation(o.activation),
                                        o.dilation_w, o.dilation_h)
                .Union()};
  }
  if (op.kind == OpKind::DepthwiseConv2D) {
    const auto& o = options<DepthwiseConv2DOptions>(graph, op);
    refuse_explicit_padding(graph, op, o.explicit_padding.has_value());
    return {tflite::BuiltinOptions::DepthwiseConv2DOptions,
            tflite::CreateDepthwiseConv2DOptions(fbb, padding(o.padding), o.stride_w, o.stride_h, o.depth_multiplier,
                                                 activation(o.activation), o.dilation_w, o.dilation_h)
                .Union()};
  }
  const auto& o = options<FullyConnectedOptions>(graph, op);
  return {tflite::BuiltinOptions::FullyConnectedOptions,
          tflite::CreateFullyConnectedOptions(fbb, activation(o.activation),
                                              tflite::FullyConnectedOptionsWeightsFormat::DEFAULT, o.keep_num_dims)
              .Union()};
}

// int16 ADD and SUB take any scales (pot_scale_int16 false), as TFLite's converter writes them: the schema's
// default (true) selects TFLite's older kernel for power-of-two scales only.
WrittenOptions fused_activation_options(FlatBufferBuilder& fbb, const Graph& graph, const Op& op) {
  const tflite::ActivationFunctionType a = activation(options<FusedActivationOptions>(graph, op).activation);
  const bool pot = graph.tensor(op.outputs[0]).dtype != DType::kInt16;
  if (op.kind == OpKind::Add) return {tflite::BuiltinOptions::AddOptions, tflite::CreateAddOptions(fbb, a, pot).Union()};
  if (op.kind == OpKind::Sub) return {tflite::BuiltinOptions::SubOptions, tflite::CreateSubOptions(fbb, a, pot).Union()};
  return {tflite::BuiltinOptions::MulOptions, tflite::CreateMulOptions(fbb, a).Union()};
}

// The recurrent operators: their state tensors are variable tensors (written with is_variable).
WrittenOptions recurrent_options(FlatBufferBuilder& fbb, const Graph& graph, const Op& op) {
  if (op.kind == OpKind::Svdf) {
    const auto& o = options<SvdfOptions>(graph, op);
    return {tflite::BuiltinOptions::SVDFOptions,
            tflite::CreateSVDFOptions(fbb, o.rank, activation(o.activation)).Union()};
  }
  const auto& o = options<LstmOptions>(graph, op);
  return {tflite::BuiltinOptions::UnidirectionalSequenceLSTMOptions,
          tflite::CreateUnidirectionalSequenceLSTMOptions(fbb, o.activation, o.cell_clip, 0.0f, o.time_major, false,
                                                          o.diagonal_recurrent)
              .Union()};
}

WrittenOptions op_options(FlatBufferBuilder& fbb, const Graph& graph, const Op& op) {
  switch (op.kind) {
    case OpKind::Svdf:
    case OpKind::UnidirectionalSequenceLstm: return recurrent_options(fbb, graph, op);
    case OpKind::Conv2D:
    case OpKind::DepthwiseConv2D:
    case OpKind::FullyConnected: return conv_options(fbb, graph, op);
    case OpKind::AveragePool2D:
    case OpKind::MaxPool2D: {
      const auto& o = options<Pool2DOptions>(graph, op);
      refuse_explicit_padding(graph, op, o.explicit_padding.has_value());
      return {tflite::BuiltinOptions::Pool2DOptions,
              tflite::CreatePool2DOptions(fbb, padding(o.padding), o.stride_w, o.stride_h, o.filter_w, o.filter_h,
                                          activation(o.activation))
                  .Union()};
    }
    case OpKind::Reshape: {
      const auto& o = options<ReshapeOptions>(graph, op);
      return {tflite::BuiltinOptions::ReshapeOptions, tflite::CreateReshapeOptionsDirect(fbb, &o.new_shape).Union()};
    }
    case OpKind::Concatenation: {
      const auto& o = options<ConcatenationOptions>(graph, op);
      return {tflite::BuiltinOptions::ConcatenationOptions,
              tflite::CreateConcatenationOptions(fbb, o.axis, activation(o.activation)).Union()};
    }
    case OpKind::Softmax:
      return {tflite::BuiltinOptions::SoftmaxOptions,
              tflite::CreateSoftmaxOptions(fbb, options<SoftmaxOptions>(graph, op).beta).Union()};
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul: return fused_activation_options(fbb, graph, op);
    case OpKind::Quantize:
      return {tflite::BuiltinOptions::QuantizeOptions, tflite::CreateQuantizeOptions(fbb).Union()};
    case OpKind::Dequantize:
      return {tflite::BuiltinOptions::DequantizeOptions, tflite::CreateDequantizeOptions(fbb).Union()};
    case OpKind::Logistic:
    case OpKind::Tanh:
    case OpKind::Relu:
    case OpKind::Relu6: return {};
    default:
      if (options_if<NoOptions>(op) != nullptr) return {};  // EXP, PAD, ...: TFLite reads no options for them
      break;
  }
  throw CompileError(describe_op(graph, op) + " cannot be written to a .tflite by microaot (its options)");
}

Offset<tflite::QuantizationParameters> quantization(FlatBufferBuilder& fbb, const Quantization& q) {
  if (q.empty()) return 0;
  return tflite::CreateQuantizationParametersDirect(fbb, &q.scale, &q.zero_point,
                                                    tflite::QuantizationDetails::NONE, 0, q.axis);
}

// Buffer 0 is the empty one every non-constant tensor names; each constant gets one of its own.
std::vector<Offset<tflite::Tensor>> tensors(FlatBufferBuilder& fbb, const Graph& graph,
                                            std::vector<Offset<tflite::Buffer>>& buffers) {
  std::vector<Offset<tflite::Tensor>> out;
  for (const Tensor& t : graph.tensors) {
    uint32_t buffer = 0;
    if (t.is_constant) {
      buffer = static_cast<uint32_t>(buffers.size());
      fbb.ForceVectorAlignment(t.data.size(), 1, 16);
      buffers.push_back(tflite::CreateBuffer(fbb, fbb.CreateVector(t.data)));
    }
    out.push_back(tflite::CreateTensor(fbb, fbb.CreateVector(t.shape), tensor_type(t.dtype), buffer,
                                       fbb.CreateString(t.name), quantization(fbb, t.quant), t.is_persistent));
  }
  return out;
}
}  // namespace

std::vector<uint8_t> write_tflite(const Graph& graph) {
  FlatBufferBuilder fbb;
  std::vector<Offset<tflite::Buffer>> buffers = {tflite::CreateBuffer(fbb)};
  const auto tensor_table = tensors(fbb, graph, buffers);
  std::map<std::pair<int, int>, uint32_t> code_index;  // (builtin code, version) -> operator code
  std::vector<Offset<tflite::OperatorCode>> codes;
  std::vector<Offset<tflite::Operator>> ops;
  for (const Op& op : graph.ops) {
    const int code = op_kind_builtin_code(op.kind);
    auto [at, fresh] = code_index.emplace(std::make_pair(code, op.version), static_cast<uint32_t>(codes.size()));
    if (fresh) {
      codes.push_back(tflite::CreateOperatorCode(fbb, static_cast<int8_t>(std::min(code, 127)), 0, op.version, code));
    }
    const WrittenOptions o = op_options(fbb, graph, op);
    ops.push_back(tflite::CreateOperatorDirect(fbb, at->second, &op.inputs, &op.outputs, o.type, o.table));
  }
  const auto subgraph = tflite::CreateSubGraphDirect(fbb, &tensor_table, &graph.inputs, &graph.outputs, &ops, "main");
  const std::vector<Offset<tflite::SubGraph>> subgraphs = {subgraph};
  const auto model = tflite::CreateModelDirect(fbb, 3, &codes, &subgraphs, graph.description.c_str(), &buffers);
  tflite::FinishModelBuffer(fbb, model);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace microaot
