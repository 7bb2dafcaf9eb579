/* The executor's calls for I/O outside the arena (--io-in-arena off): binding inputs and outputs to the
 * caller's buffers, and the microTVM entry's body. Only folders of such models get this file. */
#include "microaot/executor.h"

#include "executor_internal.h"

/* Byte ranges [a, a + a_size) and [b, b + b_size) share a byte (NULL or empty ranges share none). */
static int overlaps(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size) {
  const uintptr_t x = (uintptr_t)a;
  const uintptr_t y = (uintptr_t)b;
  if (a == NULL || b == NULL || a_size == 0u || b_size == 0u) return 0;
  return x < y + b_size && y < x + a_size;
}

/* A buffer bound to `slot` must not share bytes with the arenas, the default I/O buffers, or another
 * bound buffer the run writes (inputs may overlap inputs: both are only read). */
static int overlaps_library_memory(const microaot_context *ctx, size_t slot, const uint8_t *buffer) {
  const microaot_model *m = ctx->model;
  const size_t size = slot_desc(m, slot)->size;
  size_t other;
  if (overlaps(buffer, size, ctx->arena - m->arena_header, m->arena_size) ||
      overlaps(buffer, size, m->static_arena, m->arena_size)) {
    return 1;
  }
  for (other = 0; other < slot_count(m); ++other) {
    const size_t other_size = slot_desc(m, other)->size;
    const int both_inputs = slot < m->num_inputs && other < m->num_inputs;
    if (m->static_io != NULL && overlaps(buffer, size, m->static_io[other], other_size)) return 1;
    if (other != slot && !both_inputs && overlaps(buffer, size, ctx->slots[other].buffer, other_size)) return 1;
  }
  return 0;
}

/* Binds input or output `index` to the caller's buffer. */
static microaot_status bind_slot(microaot_context *ctx, int output, size_t index, void *buffer, size_t size) {
  const microaot_model *m;
  size_t slot;
  if (ctx == NULL || buffer == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (!state_accepts_writes(ctx) || ctx->model->io_in_arena) return MICROAOT_STATUS_BAD_STATE;
  m = ctx->model;
  if (index >= (output ? m->num_outputs : m->num_inputs)) return MICROAOT_STATUS_BAD_INDEX;
  slot = output ? m->num_inputs + index : index;
  if (size < slot_desc(m, slot)->size) return MICROAOT_STATUS_BAD_SIZE;
  if ((uintptr_t)buffer % m->io_align != 0u) return MICROAOT_STATUS_ARENA_MISALIGNED;
  if (overlaps_library_memory(ctx, slot, (const uint8_t *)buffer)) return MICROAOT_STATUS_BUFFER_OVERLAP;
  ctx->slots[slot].buffer = (uint8_t *)buffer;
  ctx->slots[slot].written = INPUT_WRITTEN; /* the caller's buffer: the run reads whatever it holds */
  /* The last outputs are in the old buffer: output_ptr must not hand out the new one as if computed. */
  if (output) ctx->state = STATE_READY;
  return MICROAOT_STATUS_OK;
}

microaot_status microaot_bind_input(microaot_context *ctx, size_t index, void *buffer, size_t size) {
  return bind_slot(ctx, 0, index, buffer, size);
}

microaot_status microaot_bind_output(microaot_context *ctx, size_t index, void *buffer, size_t size) {
  return bind_slot(ctx, 1, index, buffer, size);
}

microaot_status microaot_run_once_bound(microaot_context *ctx, const microaot_model *model, microaot_slot *slots,
                                        void *const *inputs, void *const *outputs) {
  microaot_status status;
  size_t i;
  if (inputs == NULL || outputs == NULL) return MICROAOT_STATUS_NULL_POINTER;
  status = microaot_init(ctx, model, slots, NULL, 0u);
  for (i = 0; status == MICROAOT_STATUS_OK && i < model->num_inputs; ++i) {
    status = microaot_bind_input(ctx, i, inputs[i], model->inputs[i].size);
  }
  for (i = 0; status == MICROAOT_STATUS_OK && i < model->num_outputs; ++i) {
    status = microaot_bind_output(ctx, i, outputs[i], model->outputs[i].size);
  }
  if (status == MICROAOT_STATUS_OK) status = microaot_run(ctx);
  if (ctx != NULL) (void)microaot_destroy(ctx);
  return status;
}
