// Steps of the .tflite reader, shared between its files (not part of the frontend's interface).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/custom_op.h"
#include "ir/graph.h"
#include "tflite_schema_generated.h"

namespace microaot {
namespace tflite_detail {

// Files above this size are refused: flatbuffer offsets are 32-bit and the verifier asserts on more.
constexpr uint64_t kMaxModelBytes = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
// Largest tensor the reader accepts, in bytes: sizes and element counts must fit the kernels' int32.
constexpr int64_t kMaxTensorBytes = (int64_t{1} << 31) - 1;

// Checks size, file identifier and the flatbuffer structure, then the schema version; returns the model.
const tflite::Model& verify_model(const std::vector<uint8_t>& bytes);

// Refuses a model whose constants TFLite Micro's compression packed (its COMPRESSION_METADATA entry): their
// buffers hold table indices, not values.
void check_not_compressed(const tflite::Model& model);

// TensorFlow Lite Micro's DECODE operator (custom code "TFLM_DECODE"), which the reader folds away
// (tflite_decode.cpp): true for its operator code.
bool is_tflm_decode(const tflite::OperatorCode& code);
// Decodes every TFLM_DECODE output of `subgraph` (tensors already converted) into the constant it stands for,
// marked with Tensor::lut_bits; CompileError naming the operator and tensor for a kind other than the look-up
// table or for data that does not decode (indices past a table, tables too short, a wrong width or shape).
void fold_tflm_decodes(const tflite::Model& model, const tflite::SubGraph& subgraph, Graph& graph);

// The main subgraph: subgraph 0, present and non-null.
const tflite::SubGraph& main_subgraph(const tflite::Model& model);

// What the reader may copy out of a file, as a multiple of its size (plus 1 MiB): real models stay
// near 1; more means flatbuffer data shared many times to blow up memory and time.
constexpr uint64_t kMaxExpansion = 8;
// Most dimensions a tensor may have (TFLite's own kernels stop at 5 or 6).
constexpr size_t kMaxRank = 16;

// Refuses a subgraph whose conversion would copy more than kMaxExpansion times the file size.
void check_expansion(const tflite::Model& model, const tflite::SubGraph& subgraph, size_t file_bytes);

// The operator code of `op` (operator `index` of its subgraph); throws when its code index is out of range.
const tflite::OperatorCode& opcode_of(const tflite::Model& model, const tflite::Operator& op, size_t index);
// The operator's builtin code (the larger of the byte and the int field, as the format says).
int builtin_code(const tflite::OperatorCode& code);
// "LSTM", "custom operator 'Foo'" or "unknown builtin operator".
std::string operator_code_name(const tflite::OperatorCode& code);
// True when microaot has an IR kind for builtin `code`.
bool is_compilable_code(int code);

// The IR kind and version of each operator of `subgraph`, in order: OpKind::Custom for an operator a
// binding names (a CUSTOM op by its custom_code, a builtin by its name). Throws one CompileError listing
// every operator microaot does not compile, then one for a binding no operator uses.
struct ResolvedOp {
  OpKind kind;
  int version;
  int binding = -1;  // index into the bindings for OpKind::Custom
  bool by_reader = false;  // CALL_ONCE, VAR_HANDLE, TFLM_DECODE: no IR op (is_reader_handled_code, is_tflm_decode)
};
std::vector<ResolvedOp> resolve_operators(const tflite::Model& model, const tflite::SubGraph& subgraph,
                                          const CustomOpBindings& bindings);

// Fills graph.tensors from the subgraph: type, shape, quantization and constant bytes, all validated.
void convert_tensors(const tflite::Model& model, const tflite::SubGraph& subgraph,
                     const std::vector<uint8_t>& bytes, Graph& graph);

// Checks graph inputs/outputs and the order of reads and writes: every tensor an op reads is a graph
// input, a constant or written by an earlier op; every tensor is written at most once.
void check_dataflow(const Graph& graph, const tflite::SubGraph& subgraph);

// CALL_ONCE and VAR_HANDLE: structure the reader resolves itself (tflite_variables.cpp), never IR ops.
bool is_reader_handled_code(int code);

// Resource variables: each VAR_HANDLE'd variable becomes one persistent IR tensor (its first handle's id)
// with its initial value, READ_VARIABLE/ASSIGN_VARIABLE ops are rewritten onto it, and the initialisation
// subgraphs CALL_ONCE names are evaluated (constants only). Throws CompileError naming op and subgraph.
void resolve_variables(const tflite::Model& model, const tflite::SubGraph& main, const std::vector<uint8_t>& file,
                       Graph& graph);

// The format's name of a tensor's element type, e.g. "FLOAT16".
const char* tensor_type_name(tflite::TensorType type);

}  // namespace tflite_detail
}  // namespace microaot
