#include "codegen/graph_check.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "kernels/kernel_registry.h"

namespace microaot {

namespace {
uint8_t arg_role(KernelArgSpec::Role role) {
  switch (role) {
    case KernelArgSpec::Role::kOptionalIn: return MICROAOT_ARG_OPTIONAL_IN;
    case KernelArgSpec::Role::kOut: return MICROAOT_ARG_OUT;
    case KernelArgSpec::Role::kInList: return MICROAOT_ARG_IN_LIST;
    case KernelArgSpec::Role::kOutList: return MICROAOT_ARG_OUT_LIST;
    default: return MICROAOT_ARG_IN;
  }
}

uint8_t arg_dtype(const KernelArgSpec& spec) {
  static const DType kOrder[] = {DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64,
                                 DType::kUInt8, DType::kBool, DType::kFloat32};
  for (uint8_t code = 0; code < sizeof kOrder / sizeof kOrder[0]; ++code) {
    if (!spec.any_type && spec.dtype == kOrder[code]) return static_cast<uint8_t>(code + MICROAOT_DTYPE_S8);
  }
  return MICROAOT_DTYPE_ANY;
}

// A params struct laid out as a C compiler would: scalars 4 bytes, array pointers pointer-aligned.
struct Layout {
  std::vector<microaot_param_field> fields;
  uint16_t size = 0;
};

Layout layout_of(const ParamStruct& params) {
  static const uint8_t kKinds[] = {MICROAOT_PARAM_I32, MICROAOT_PARAM_F32, MICROAOT_PARAM_I8_ARRAY,
                                   MICROAOT_PARAM_I16_ARRAY, MICROAOT_PARAM_I32_ARRAY, MICROAOT_PARAM_F32_ARRAY};
  Layout layout;
  size_t at = 0;
  for (const ParamField& field : params.fields) {
    const size_t bytes = is_array(field.kind) ? sizeof(void*) : 4;
    at = (at + bytes - 1) / bytes * bytes;
    layout.fields.push_back({kKinds[static_cast<int>(field.kind)], static_cast<uint16_t>(at)});
    at += bytes;
  }
  layout.size = static_cast<uint16_t>((at + sizeof(void*) - 1) / sizeof(void*) * sizeof(void*));
  return layout;
}

// The run being checked: the entries are plain functions, so they find it here.
struct Checked {
  const uint8_t* blob = nullptr;
  size_t blob_size = 0;
  const uint8_t* arena = nullptr;  // the first planned byte
  size_t arena_size = 0;
  BlobCheck* result = nullptr;
};
thread_local Checked current;

uint32_t word(const uint8_t* at, uint32_t index) {
  uint32_t value;
  std::memcpy(&value, at + 4 * index, 4);
  return value;
}

bool inside(const void* p, size_t bytes, const uint8_t* base, size_t size) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p), b = reinterpret_cast<uintptr_t>(base);
  return a >= b && a - b <= size && bytes <= size - (a - b);
}

bool in_blob_or_arena(const void* p, size_t bytes) {
  return inside(p, bytes, current.blob, current.blob_size) || inside(p, bytes, current.arena, current.arena_size);
}

class Firmware {
 public:
  Firmware() {
    const KernelRegistry& registry = kernel_registry();
    for (const KernelInfo& kernel : registry.kernels) {
      std::vector<microaot_arg_spec> specs;
      for (const KernelArgSpec& spec : kernel.tensor_args()) specs.push_back({arg_role(spec.role), arg_dtype(spec)});
      args_.push_back(specs);
      layouts_.push_back(layout_of(*kernel.params));
    }
    for (const KernelInfo& kernel : registry.kernels) {
      const size_t i = static_cast<size_t>(kernel.id);
      table_.push_back({static_cast<uint16_t>(kernel.id), static_cast<uint8_t>(args_[i].size()),
                        static_cast<uint8_t>(kernel.takes_scratch() ? 1 : 0), args_[i].data(),
                        layouts_[i].fields.data(), static_cast<uint16_t>(layouts_[i].fields.size()), layouts_[i].size,
                        &Firmware::entry});
    }
  }
  // The entries of the `linked` ids (every kernel's when null), sorted by id as the loader searches them.
  std::vector<microaot_graph_kernel> table(const std::vector<int>* linked) const {
    if (linked == nullptr) return table_;
    std::vector<microaot_graph_kernel> entries;
    for (const microaot_graph_kernel& entry : table_) {
      if (std::find(linked->begin(), linked->end(), entry.id) != linked->end()) entries.push_back(entry);
    }
    return entries;
  }
  const microaot_graph_kernel& kernel(uint32_t id) const { return table_.at(id); }

 private:
  static microaot_status entry(const uint8_t* record, void* const* args, uint32_t num_args, void* scratch);

  std::vector<std::vector<microaot_arg_spec>> args_;
  std::vector<Layout> layouts_;
  std::vector<microaot_graph_kernel> table_;
};

const Firmware& checking_firmware() {
  static const Firmware instance;
  return instance;
}

// Step `steps` of the blob: its record decodes into exactly its struct's bytes, and every tensor and the
// scratch it was handed lie inside the blob or the arena.
microaot_status Firmware::entry(const uint8_t* record, void* const* args, uint32_t num_args, void* scratch) {
  BlobCheck& result = *current.result;
  const uint8_t* blob = current.blob;
  const uint8_t* step = blob + word(blob, MICROAOT_BLOB_W_STEPS_AT) + 4 * MICROAOT_BLOB_STEP_WORDS * result.steps;
  const microaot_graph_kernel& kernel = checking_firmware().kernel(word(step, MICROAOT_BLOB_S_KERNEL));
  std::unique_ptr<uint8_t[]> params(new uint8_t[kernel.params_size]);  // exact: ASan sees any overrun
  microaot_graph_decode_params(params.get(), kernel.fields, kernel.num_fields, record);
  const uint8_t* indices = blob + word(blob, MICROAOT_BLOB_W_ARGS_AT) + 4 * word(step, MICROAOT_BLOB_S_FIRST_ARG);
  for (uint32_t i = 0; i < num_args; ++i) {
    const uint32_t index = word(indices, i);
    if (index == MICROAOT_BLOB_NONE) continue;
    const uint8_t* tensor = blob + word(blob, MICROAOT_BLOB_W_TENSORS_AT) + 4 * MICROAOT_BLOB_TENSOR_WORDS * index;
    if (!in_blob_or_arena(args[i], word(tensor, MICROAOT_BLOB_T_BYTES))) {
      result.problem = "step " + std::to_string(result.steps) + " argument " + std::to_string(i) + " outside";
    }
  }
  if (scratch != nullptr && !in_blob_or_arena(scratch, word(step, MICROAOT_BLOB_S_SCRATCH_BYTES))) {
    result.problem = "step " + std::to_string(result.steps) + " scratch outside the arena";
  }
  ++result.steps;
  return MICROAOT_STATUS_OK;
}

constexpr size_t kMaxCheckedArena = size_t{16} << 20;
}  // namespace

BlobCheck check_blob(const std::vector<uint8_t>& bytes, uint32_t max_inputs, const std::vector<int>* linked) {
  BlobCheck result;
  const size_t size = bytes.size();
  std::unique_ptr<uint8_t, decltype(&std::free)> blob(
      static_cast<uint8_t*>(std::aligned_alloc(MICROAOT_BLOB_ALIGN, (size + MICROAOT_BLOB_ALIGN) / MICROAOT_BLOB_ALIGN * MICROAOT_BLOB_ALIGN)),
      &std::free);
  if (size > 0) std::memcpy(blob.get(), bytes.data(), size);
  uint32_t arena_size = size >= 4 * MICROAOT_BLOB_HEADER_WORDS
                            ? word(blob.get(), MICROAOT_BLOB_W_ARENA_BYTES) + word(blob.get(), MICROAOT_BLOB_W_ARENA_HEADER)
                            : 16;
  if (arena_size > kMaxCheckedArena || arena_size == 0) arena_size = 16;  // too large to check: init refuses it
  std::unique_ptr<uint8_t, decltype(&std::free)> arena(
      static_cast<uint8_t*>(std::aligned_alloc(4096, (arena_size + 4095) / 4096 * 4096)), &std::free);
  const std::vector<microaot_graph_kernel> entries = checking_firmware().table(linked);
  const microaot_graph_firmware table = {entries.data(), static_cast<uint32_t>(entries.size()), max_inputs, nullptr, 0};
  microaot_context ctx;
  microaot_graph graph;
  std::vector<microaot_slot> slots(max_inputs + 1);  // never empty: init refuses a NULL array
  std::memset(&ctx, 0, sizeof ctx);
  graph.missing_kernel = MICROAOT_BLOB_NONE;
  result.init = microaot_graph_init(&ctx, &graph, slots.data(), &table, blob.get(), size, arena.get(), arena_size);
  result.missing_kernel = graph.missing_kernel;
  if (result.init != MICROAOT_STATUS_OK) return result;
  for (uint32_t i = 0; i < graph.model.num_inputs; ++i) {
    void* data = nullptr;
    size_t input_size = 0;
    if (microaot_input_ptr(&ctx, i, &data, &input_size) == MICROAOT_STATUS_OK) std::memset(data, 0, input_size);
  }
  current = {blob.get(), size, ctx.arena, arena_size - graph.model.arena_header, &result};
  result.run = microaot_run(&ctx);
  current = {};
  if (result.problem.empty() && result.steps != graph.model.num_steps) result.problem = "not every step ran";
  return result;
}

}  // namespace microaot
