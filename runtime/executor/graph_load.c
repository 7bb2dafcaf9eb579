/* The graph executor's init: a blob is untrusted input (it may come over the air), so every word a step will
 * use is checked here, once, against the blob's own size, the arena it plans and the kernels this firmware
 * links. A blob that passes can make no step read or write outside the blob and the arena through the
 * addresses the interpreter forms. */
#include <string.h>

#include "executor_internal.h"
#include "graph_blob.h"

typedef struct {
  const uint8_t *blob;
  uint32_t bytes;
  uint32_t header[MICROAOT_BLOB_HEADER_WORDS];
  const microaot_graph_firmware *firmware;
  uint32_t missing_kernel; /* the kernel id of a MISSING_KERNEL */
} blob_view;

/* [at, at + size) lies inside [0, limit). */
static int fits(uint32_t at, uint32_t size, uint32_t limit) { return at <= limit && size <= limit - at; }

/* A section of `count` records of `record_bytes` each at header word `at_word`: aligned, after the header, inside. */
static int section_fits(const blob_view *v, unsigned at_word, uint32_t count, uint32_t record_bytes) {
  const uint32_t at = v->header[at_word];
  const uint32_t header_bytes = 4u * MICROAOT_BLOB_HEADER_WORDS;
  if (at % MICROAOT_BLOB_ALIGN != 0u || at < header_bytes) return 0;
  return count <= v->bytes / record_bytes && fits(at, count * record_bytes, v->bytes);
}

static size_t dtype_bytes(uint32_t dtype) {
  static const uint8_t bytes[MICROAOT_DTYPE_COUNT] = {1, 1, 2, 4, 8, 1, 1, 4};
  return bytes[dtype];
}

static microaot_status check_header(blob_view *v, const void *blob, size_t blob_size) {
  uint32_t i;
  if (blob_size < 4u * MICROAOT_BLOB_HEADER_WORDS) return MICROAOT_STATUS_BAD_MODEL;
  v->blob = (const uint8_t *)blob;
  for (i = 0; i < MICROAOT_BLOB_HEADER_WORDS; ++i) v->header[i] = header_word(v->blob, i);
  if (v->header[MICROAOT_BLOB_W_MAGIC] != MICROAOT_BLOB_MAGIC) return MICROAOT_STATUS_BAD_MODEL;
  if (v->header[MICROAOT_BLOB_W_VERSION] != MICROAOT_BLOB_VERSION) return MICROAOT_STATUS_UNSUPPORTED_MODEL;
  v->bytes = v->header[MICROAOT_BLOB_W_BYTES];
  if (v->bytes > blob_size || v->bytes % 4u != 0u || v->bytes < 4u * MICROAOT_BLOB_HEADER_WORDS) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  if (microaot_blob_checksum(v->blob + 16u, v->bytes - 16u) != v->header[MICROAOT_BLOB_W_CHECKSUM]) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  return MICROAOT_STATUS_OK;
}

/* The arena's figures, the sections' places, and whether this firmware's contexts hold the I/O. */
static microaot_status check_layout(const blob_view *v) {
  const uint32_t *h = v->header;
  const uint32_t align = h[MICROAOT_BLOB_W_ARENA_ALIGN];
  const uint32_t io = h[MICROAOT_BLOB_W_NUM_INPUTS] + h[MICROAOT_BLOB_W_NUM_OUTPUTS];
  if (align < 4u || align > 4096u || (align & (align - 1u)) != 0u) return MICROAOT_STATUS_BAD_MODEL;
  if (h[MICROAOT_BLOB_W_ARENA_HEADER] < sizeof(uintptr_t) || h[MICROAOT_BLOB_W_ARENA_HEADER] % align != 0u ||
      h[MICROAOT_BLOB_W_ARENA_HEADER] > 4096u || h[MICROAOT_BLOB_W_ARENA_BYTES] > 0x7FFFFFFFu) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  if (h[MICROAOT_BLOB_W_NUM_INPUTS] > 255u || h[MICROAOT_BLOB_W_NUM_OUTPUTS] > 255u ||
      h[MICROAOT_BLOB_W_NUM_OUTPUTS] == 0u) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  if (!section_fits(v, MICROAOT_BLOB_W_IO_AT, io, (uint32_t)sizeof(microaot_io_desc)) ||
      !section_fits(v, MICROAOT_BLOB_W_TENSORS_AT, h[MICROAOT_BLOB_W_NUM_TENSORS], 4u * MICROAOT_BLOB_TENSOR_WORDS) ||
      !section_fits(v, MICROAOT_BLOB_W_STEPS_AT, h[MICROAOT_BLOB_W_NUM_STEPS], 4u * MICROAOT_BLOB_STEP_WORDS) ||
      !section_fits(v, MICROAOT_BLOB_W_ARGS_AT, h[MICROAOT_BLOB_W_NUM_ARGS], 4u) ||
      !section_fits(v, MICROAOT_BLOB_W_PARAMS_AT, h[MICROAOT_BLOB_W_PARAMS_BYTES], 1u) ||
      !section_fits(v, MICROAOT_BLOB_W_CONSTANTS_AT, h[MICROAOT_BLOB_W_CONSTANTS_BYTES], 1u)) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  if (h[MICROAOT_BLOB_W_NUM_INPUTS] > v->firmware->max_inputs) return MICROAOT_STATUS_UNSUPPORTED_MODEL;
  return MICROAOT_STATUS_OK;
}

/* The state: inside the arena; its initial value, when it has one, inside the constants. */
static microaot_status check_state(const blob_view *v) {
  const uint32_t *h = v->header;
  const uint32_t bytes = h[MICROAOT_BLOB_W_STATE_BYTES], init = h[MICROAOT_BLOB_W_STATE_INIT_AT];
  if (!fits(h[MICROAOT_BLOB_W_STATE_AT], bytes, h[MICROAOT_BLOB_W_ARENA_BYTES])) return MICROAOT_STATUS_BAD_MODEL;
  if (init != MICROAOT_BLOB_NONE && !fits(init, bytes, h[MICROAOT_BLOB_W_CONSTANTS_BYTES])) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  return MICROAOT_STATUS_OK;
}

/* Inputs and outputs: inside the arena (pool 0), not empty. */
static microaot_status check_io(const blob_view *v) {
  const uint32_t count = v->header[MICROAOT_BLOB_W_NUM_INPUTS] + v->header[MICROAOT_BLOB_W_NUM_OUTPUTS];
  const uint8_t *desc = v->blob + v->header[MICROAOT_BLOB_W_IO_AT];
  uint32_t i;
  for (i = 0; i < count; ++i, desc += sizeof(microaot_io_desc)) {
    const uint32_t offset = blob_word(desc, 0u), size = blob_word(desc, 1u), pool = blob_word(desc, 2u);
    if (pool != 0u || size == 0u || !fits(offset, size, v->header[MICROAOT_BLOB_W_ARENA_BYTES])) {
      return MICROAOT_STATUS_BAD_MODEL;
    }
  }
  return MICROAOT_STATUS_OK;
}

/* Every tensor: a known type, aligned to its elements, inside the arena or the constants. */
static microaot_status check_tensors(const blob_view *v) {
  uint32_t i;
  for (i = 0; i < v->header[MICROAOT_BLOB_W_NUM_TENSORS]; ++i) {
    const uint8_t *t = tensor_record(v->blob, i);
    const uint32_t place = blob_word(t, MICROAOT_BLOB_T_PLACE), offset = blob_word(t, MICROAOT_BLOB_T_OFFSET);
    const uint32_t bytes = blob_word(t, MICROAOT_BLOB_T_BYTES), dtype = blob_word(t, MICROAOT_BLOB_T_DTYPE);
    const uint32_t limit = place == MICROAOT_PLACE_ARENA ? v->header[MICROAOT_BLOB_W_ARENA_BYTES]
                                                         : v->header[MICROAOT_BLOB_W_CONSTANTS_BYTES];
    if (place > MICROAOT_PLACE_CONSTANT || dtype == MICROAOT_DTYPE_ANY || dtype >= MICROAOT_DTYPE_COUNT) {
      return MICROAOT_STATUS_BAD_MODEL;
    }
    if (offset % dtype_bytes(dtype) != 0u || bytes % dtype_bytes(dtype) != 0u || !fits(offset, bytes, limit)) {
      return MICROAOT_STATUS_BAD_MODEL;
    }
  }
  return MICROAOT_STATUS_OK;
}

/* A parameter record has exactly the bytes its kernel's fields take (microaot_graph_decode_params). */
static int record_fits(const microaot_graph_kernel *kernel, const uint8_t *record, uint32_t size) {
  uint32_t used = 0u, i;
  for (i = 0; i < kernel->num_fields; ++i) {
    const uint8_t kind = kernel->fields[i].kind;
    uint32_t count, element;
    if (size - used < 4u) return 0;
    used += 4u;
    if (kind == MICROAOT_PARAM_I32 || kind == MICROAOT_PARAM_F32) continue;
    count = blob_word(record, used / 4u - 1u);
    element = kind == MICROAOT_PARAM_I8_ARRAY ? 1u : kind == MICROAOT_PARAM_I16_ARRAY ? 2u : 4u;
    if (count > (size - used) / element) return 0;
    used += (count * element + 3u) / 4u * 4u;
    if (used > size) return 0;
  }
  return used == size;
}

/* The signature entry blob argument `i` of `num_args` binds to (a list takes what the others leave). */
static const microaot_arg_spec *spec_of_argument(const microaot_graph_kernel *kernel, uint32_t i, uint32_t num_args) {
  uint32_t list = 0u;
  while (list < kernel->num_args && kernel->args[list].role != MICROAOT_ARG_IN_LIST &&
         kernel->args[list].role != MICROAOT_ARG_OUT_LIST) {
    ++list;
  }
  if (list == kernel->num_args || i < list) return &kernel->args[i];
  if (i < list + (num_args - kernel->num_args + 1u)) return &kernel->args[list];
  return &kernel->args[i - (num_args - kernel->num_args)];
}

static int argument_count_fits(const microaot_graph_kernel *kernel, uint32_t num_args) {
  uint32_t i;
  for (i = 0; i < kernel->num_args; ++i) {
    const uint8_t role = kernel->args[i].role;
    if (role == MICROAOT_ARG_IN_LIST || role == MICROAOT_ARG_OUT_LIST) {
      return num_args >= kernel->num_args && num_args <= MICROAOT_GRAPH_MAX_ARGS;
    }
  }
  return num_args == kernel->num_args;
}

/* Each argument: a tensor of the blob (absent only where optional) of the type the kernel takes; outputs in
 * the arena, never in the constants. */
static microaot_status check_arguments(const blob_view *v, const microaot_graph_kernel *kernel, uint32_t first,
                                       uint32_t num_args) {
  const uint8_t *indices = v->blob + v->header[MICROAOT_BLOB_W_ARGS_AT];
  uint32_t i;
  if (!fits(first, num_args, v->header[MICROAOT_BLOB_W_NUM_ARGS]) || !argument_count_fits(kernel, num_args)) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  for (i = 0; i < num_args; ++i) {
    const microaot_arg_spec *spec = spec_of_argument(kernel, i, num_args);
    const uint32_t index = blob_word(indices, first + i);
    const int output = spec->role == MICROAOT_ARG_OUT || spec->role == MICROAOT_ARG_OUT_LIST;
    const uint8_t *t;
    if (index == MICROAOT_BLOB_NONE && spec->role == MICROAOT_ARG_OPTIONAL_IN) continue;
    if (index >= v->header[MICROAOT_BLOB_W_NUM_TENSORS]) return MICROAOT_STATUS_BAD_MODEL;
    t = tensor_record(v->blob, index);
    if (spec->dtype != MICROAOT_DTYPE_ANY && blob_word(t, MICROAOT_BLOB_T_DTYPE) != spec->dtype) {
      return MICROAOT_STATUS_BAD_MODEL;
    }
    if (output && blob_word(t, MICROAOT_BLOB_T_PLACE) != MICROAOT_PLACE_ARENA) return MICROAOT_STATUS_BAD_MODEL;
  }
  return MICROAOT_STATUS_OK;
}

/* A step: a kernel this firmware links, its parameter record, its arguments and its scratch. */
static microaot_status check_step(const blob_view *v, uint32_t step) {
  const uint8_t *s = step_record(v->blob, step);
  const microaot_graph_kernel *kernel =
      microaot_graph_find_kernel(v->firmware, blob_word(s, MICROAOT_BLOB_S_KERNEL));
  const uint32_t params_at = blob_word(s, MICROAOT_BLOB_S_PARAMS_AT);
  const uint32_t params_bytes = blob_word(s, MICROAOT_BLOB_S_PARAMS_BYTES);
  const uint32_t scratch_at = blob_word(s, MICROAOT_BLOB_S_SCRATCH_AT);
  const uint32_t scratch_bytes = blob_word(s, MICROAOT_BLOB_S_SCRATCH_BYTES);
  if (kernel == NULL) return MICROAOT_STATUS_MISSING_KERNEL;
  if (params_at % 4u != 0u || !fits(params_at, params_bytes, v->header[MICROAOT_BLOB_W_PARAMS_BYTES]) ||
      !record_fits(kernel, v->blob + v->header[MICROAOT_BLOB_W_PARAMS_AT] + params_at, params_bytes)) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  if (kernel->takes_scratch ? scratch_at == MICROAOT_BLOB_NONE || scratch_bytes == 0u ||
                                  !fits(scratch_at, scratch_bytes, v->header[MICROAOT_BLOB_W_ARENA_BYTES])
                            : scratch_at != MICROAOT_BLOB_NONE) {
    return MICROAOT_STATUS_BAD_MODEL;
  }
  return check_arguments(v, kernel, blob_word(s, MICROAOT_BLOB_S_FIRST_ARG), blob_word(s, MICROAOT_BLOB_S_NUM_ARGS));
}

static microaot_status check_blob(blob_view *v, const void *blob, size_t blob_size) {
  microaot_status status = check_header(v, blob, blob_size);
  uint32_t step;
  if (status == MICROAOT_STATUS_OK) status = check_layout(v);
  if (status == MICROAOT_STATUS_OK) status = check_state(v);
  if (status == MICROAOT_STATUS_OK) status = check_io(v);
  if (status == MICROAOT_STATUS_OK) status = check_tensors(v);
  for (step = 0; status == MICROAOT_STATUS_OK && step < v->header[MICROAOT_BLOB_W_NUM_STEPS]; ++step) {
    status = check_step(v, step);
    if (status == MICROAOT_STATUS_MISSING_KERNEL) {  /* kept for NAME_missing_kernel */
      v->missing_kernel = blob_word(step_record(v->blob, step), MICROAOT_BLOB_S_KERNEL);
    }
  }
  return status;
}

/* The descriptor the executor core runs: I/O in the arena, one pool, the interpreter's step. */
static void fill_model(microaot_graph *graph, const blob_view *v) {
  microaot_model *m = &graph->model;
  const uint32_t *h = v->header;
  const microaot_io_desc *io = (const microaot_io_desc *)(const void *)(v->blob + h[MICROAOT_BLOB_W_IO_AT]);
  memset(m, 0, sizeof *m);
  m->arena_header = h[MICROAOT_BLOB_W_ARENA_HEADER];
  m->arena_size = m->arena_header + h[MICROAOT_BLOB_W_ARENA_BYTES];
  m->arena_align = h[MICROAOT_BLOB_W_ARENA_ALIGN];
  m->io_align = 1u;
  m->num_inputs = h[MICROAOT_BLOB_W_NUM_INPUTS];
  m->num_outputs = h[MICROAOT_BLOB_W_NUM_OUTPUTS];
  m->num_steps = h[MICROAOT_BLOB_W_NUM_STEPS];
  m->num_pools = 1u;
  m->io_in_arena = 1u;
  m->inputs = io;
  m->outputs = io + m->num_inputs;
  if (v->firmware->static_arena_size >= m->arena_size) m->static_arena = v->firmware->static_arena;
  m->persistent_offset = h[MICROAOT_BLOB_W_STATE_AT];
  m->persistent_size = h[MICROAOT_BLOB_W_STATE_BYTES];
  if (m->persistent_size != 0u && h[MICROAOT_BLOB_W_STATE_INIT_AT] != MICROAOT_BLOB_NONE) {
    m->persistent_init = v->blob + h[MICROAOT_BLOB_W_CONSTANTS_AT] + h[MICROAOT_BLOB_W_STATE_INIT_AT];
  }
  m->run_step = microaot_graph_step;
  m->program = graph;
  graph->blob = v->blob;
  graph->firmware = v->firmware;
}

microaot_status microaot_graph_init(microaot_context *ctx, microaot_graph *graph, microaot_slot *slots,
                                    const microaot_graph_firmware *firmware, const void *blob, size_t blob_size,
                                    void *arena, size_t arena_size) {
  blob_view view;
  microaot_status status;
  if (ctx == NULL || graph == NULL || slots == NULL || firmware == NULL || blob == NULL) {
    return MICROAOT_STATUS_NULL_POINTER;
  }
  /* As microaot_init: never from inside this context's own run, whose descriptor this would change. */
  if (state_of(ctx) == STATE_RUNNING) return MICROAOT_STATUS_BAD_STATE;
  ctx->self = NULL; /* IDLE until the blob passes */
  graph->missing_kernel = MICROAOT_BLOB_NONE;
  if ((uintptr_t)blob % MICROAOT_BLOB_ALIGN != 0u) return MICROAOT_STATUS_ARENA_MISALIGNED;
  view.firmware = firmware;
  status = check_blob(&view, blob, blob_size);
  if (status == MICROAOT_STATUS_MISSING_KERNEL) graph->missing_kernel = view.missing_kernel;
  if (status != MICROAOT_STATUS_OK) return status;
  fill_model(graph, &view);
  if (arena == NULL && graph->model.static_arena == NULL && firmware->static_arena != NULL) {
    return MICROAOT_STATUS_ARENA_TOO_SMALL; /* the static arena was sized for another model */
  }
  return microaot_init(ctx, &graph->model, slots, arena, arena_size);
}
