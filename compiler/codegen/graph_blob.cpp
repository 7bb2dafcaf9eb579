#include "codegen/graph_blob.h"

#include <algorithm>
#include <map>

#include "codegen/emit.h"
#include "kernels/param_serializer.h"
#include "microaot/graph.h"
#include "support/diagnostics.h"

namespace microaot {

namespace {
using Words = std::vector<uint32_t>;

void put_word(std::vector<uint8_t>& out, uint32_t word) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(word >> (8 * i)));
}

void pad_to(std::vector<uint8_t>& out, size_t alignment) {
  while (out.size() % alignment != 0) out.push_back(0);
}

}  // namespace

uint32_t graph_dtype_code(DType type) {
  switch (type) {
    case DType::kInt8: return MICROAOT_DTYPE_S8;
    case DType::kInt16: return MICROAOT_DTYPE_S16;
    case DType::kInt32: return MICROAOT_DTYPE_S32;
    case DType::kInt64: return MICROAOT_DTYPE_S64;
    case DType::kUInt8: return MICROAOT_DTYPE_U8;
    case DType::kBool: return MICROAOT_DTYPE_BOOL;
    case DType::kFloat32: return MICROAOT_DTYPE_F32;
    default: break;
  }
  MICROAOT_CHECK(false, "a tensor of unsupported type reached the graph blob");
}

namespace {

uint32_t word32(int64_t value) {
  MICROAOT_CHECK(value >= 0 && value <= 0xFFFFFFFFll, "a graph blob field does not fit 32 bits");
  return static_cast<uint32_t>(value);
}

// The sections of the blob as they are filled, before the header places them.
class BlobBuilder {
 public:
  explicit BlobBuilder(const CompiledModel& model) : model_(model) {}

  void add_step(size_t step) {
    const KernelCall& call = model_.calls[step];
    const Op& op = model_.graph.ops[step];
    if (call.args.size() > MICROAOT_GRAPH_MAX_ARGS) {
      throw CompileError("operator " + std::to_string(op.source_index) + " (" + op_kind_name(op.kind) + ") takes " +
                         std::to_string(call.args.size()) + " tensors; the graph executor passes at most " +
                         std::to_string(MICROAOT_GRAPH_MAX_ARGS) + " (use --executor aot)");
    }
    const std::vector<uint8_t> record = serialize_params(*call.info().params, call.params);
    // Scratch planned for an overlap variant the plan did not need stays unused by the plain kernel.
    const int scratch = call.info().takes_scratch() ? model_.scratch_buffer[step] : -1;
    steps_.insert(steps_.end(), {word32(call.kernel), word32(static_cast<int64_t>(params_.size())),
                                 word32(static_cast<int64_t>(record.size())), word32(static_cast<int64_t>(args_.size())),
                                 word32(static_cast<int64_t>(call.args.size())),
                                 scratch < 0 ? MICROAOT_BLOB_NONE : word32(model_.plan.offsets[scratch]),
                                 scratch < 0 ? 0u : word32(model_.buffers[scratch].size), 0u});
    params_.insert(params_.end(), record.begin(), record.end());
    for (int id : call.args) args_.push_back(id == kNoTensor ? MICROAOT_BLOB_NONE : tensor_index(id));
  }

  // The state: its place in the arena, and its initial value among the constants unless it is all zeros.
  void add_state() {
    state_at_ = model_.persistent_bytes == 0 ? 0u : word32(persistent_base(model_));
    const std::vector<uint8_t> initial = initial_state(model_);
    if (std::none_of(initial.begin(), initial.end(), [](uint8_t b) { return b != 0; })) return;
    pad_to(constants_, static_cast<size_t>(model_.options.alignment));
    state_init_at_ = word32(static_cast<int64_t>(constants_.size()));
    constants_.insert(constants_.end(), initial.begin(), initial.end());
  }

  void add_io(int id) { io_.insert(io_.end(), {word32(arena_offset(model_, id)), word32(tensor_bytes(id)), 0u}); }

  GraphBlob finish() {
    const uint32_t header_bytes = padded_header_bytes();
    std::vector<uint8_t> body;  // everything after the header, each section 16-byte aligned
    std::vector<uint32_t> at(MICROAOT_BLOB_HEADER_WORDS, 0u);
    const auto place = [&](int word, const std::vector<uint8_t>& bytes) {
      pad_to(body, MICROAOT_BLOB_ALIGN);
      at[word] = header_bytes + static_cast<uint32_t>(body.size());
      body.insert(body.end(), bytes.begin(), bytes.end());
    };
    place(MICROAOT_BLOB_W_IO_AT, as_bytes(io_));
    place(MICROAOT_BLOB_W_TENSORS_AT, as_bytes(tensors_));
    place(MICROAOT_BLOB_W_STEPS_AT, as_bytes(steps_));
    place(MICROAOT_BLOB_W_ARGS_AT, as_bytes(args_));
    place(MICROAOT_BLOB_W_PARAMS_AT, params_);
    place(MICROAOT_BLOB_W_CONSTANTS_AT, constants_);
    pad_to(body, MICROAOT_BLOB_ALIGN);
    return assemble(at, body);
  }

 private:
  int64_t tensor_bytes(int id) const { return model_.graph.tensor(id).byte_size(); }

  // The blob's index of tensor `id`, added on first use: a constant is copied into the constants section.
  uint32_t tensor_index(int id) {
    const auto found = index_of_.find(id);
    if (found != index_of_.end()) return found->second;
    const Tensor& t = model_.graph.tensor(id);
    uint32_t place = MICROAOT_PLACE_ARENA;
    int64_t offset = 0;
    if (t.is_constant) {
      place = MICROAOT_PLACE_CONSTANT;
      pad_to(constants_, static_cast<size_t>(model_.options.alignment));
      offset = static_cast<int64_t>(constants_.size());
      const std::vector<uint8_t>& data = model_.graph.tensor(model_.graph.storage_of(id)).data;
      MICROAOT_CHECK(static_cast<int64_t>(data.size()) == t.byte_size(), "a constant's bytes differ from its size");
      constants_.insert(constants_.end(), data.begin(), data.end());
    } else {
      offset = arena_offset(model_, id);
    }
    tensors_.insert(tensors_.end(), {place, word32(offset), word32(t.byte_size()), graph_dtype_code(t.dtype)});
    const uint32_t index = static_cast<uint32_t>(index_of_.size());
    index_of_[id] = index;
    return index;
  }

  static std::vector<uint8_t> as_bytes(const Words& words) {
    std::vector<uint8_t> bytes;
    for (uint32_t w : words) put_word(bytes, w);
    return bytes;
  }

  // The header, zero-padded so that the first section starts aligned.
  static uint32_t padded_header_bytes() {
    return (4u * MICROAOT_BLOB_HEADER_WORDS + MICROAOT_BLOB_ALIGN - 1) / MICROAOT_BLOB_ALIGN * MICROAOT_BLOB_ALIGN;
  }

  GraphBlob assemble(std::vector<uint32_t> header, const std::vector<uint8_t>& body) const {
    const uint32_t header_bytes = padded_header_bytes();
    header[MICROAOT_BLOB_W_MAGIC] = MICROAOT_BLOB_MAGIC;
    header[MICROAOT_BLOB_W_VERSION] = MICROAOT_BLOB_VERSION;
    header[MICROAOT_BLOB_W_BYTES] = word32(static_cast<int64_t>(header_bytes + body.size()));
    header[MICROAOT_BLOB_W_ARENA_BYTES] = word32(arena_buffer_bytes(model_) - arena_header_bytes(model_));
    header[MICROAOT_BLOB_W_STATE_AT] = state_at_;
    header[MICROAOT_BLOB_W_STATE_BYTES] = word32(model_.persistent_bytes);
    header[MICROAOT_BLOB_W_STATE_INIT_AT] = state_init_at_;
    header[MICROAOT_BLOB_W_ARENA_HEADER] = word32(arena_header_bytes(model_));
    header[MICROAOT_BLOB_W_ARENA_ALIGN] = word32(model_.options.alignment);
    header[MICROAOT_BLOB_W_NUM_INPUTS] = word32(static_cast<int64_t>(model_.graph.inputs.size()));
    header[MICROAOT_BLOB_W_NUM_OUTPUTS] = word32(static_cast<int64_t>(model_.graph.outputs.size()));
    header[MICROAOT_BLOB_W_NUM_STEPS] = word32(static_cast<int64_t>(model_.calls.size()));
    header[MICROAOT_BLOB_W_NUM_TENSORS] = word32(static_cast<int64_t>(index_of_.size()));
    header[MICROAOT_BLOB_W_NUM_ARGS] = word32(static_cast<int64_t>(args_.size()));
    header[MICROAOT_BLOB_W_PARAMS_BYTES] = word32(static_cast<int64_t>(params_.size()));
    header[MICROAOT_BLOB_W_CONSTANTS_BYTES] = word32(static_cast<int64_t>(constants_.size()));
    GraphBlob blob;
    blob.bytes = as_bytes(header);
    pad_to(blob.bytes, MICROAOT_BLOB_ALIGN);
    blob.bytes.insert(blob.bytes.end(), body.begin(), body.end());
    const uint32_t checksum = microaot_blob_checksum(blob.bytes.data() + 16, blob.bytes.size() - 16);
    for (int i = 0; i < 4; ++i) blob.bytes[4 * MICROAOT_BLOB_W_CHECKSUM + i] = static_cast<uint8_t>(checksum >> (8 * i));
    blob.constants_bytes = static_cast<int64_t>(constants_.size());
    blob.description_bytes = static_cast<int64_t>(blob.bytes.size()) - blob.constants_bytes;
    return blob;
  }

  const CompiledModel& model_;
  Words io_, tensors_, steps_, args_;
  std::vector<uint8_t> params_, constants_;
  std::map<int, uint32_t> index_of_;
  uint32_t state_at_ = 0, state_init_at_ = MICROAOT_BLOB_NONE;
};
}  // namespace

GraphBlob build_graph_blob(const CompiledModel& model) {
  MICROAOT_CHECK(model.options.io_in_arena && model.options.pools.size() <= 1,
                 "the graph executor keeps every buffer in the arena");
  BlobBuilder builder(model);
  builder.add_state();
  for (int id : model.graph.inputs) builder.add_io(id);
  for (int id : model.graph.outputs) builder.add_io(id);
  for (size_t step = 0; step < model.calls.size(); ++step) builder.add_step(step);
  return builder.finish();
}

}  // namespace microaot
