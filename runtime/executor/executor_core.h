/* The executor core (microaot/executor.h): state checks, the record of who wrote shared memory last, I/O
 * addresses and the operator loop, the same for every model. Freestanding C99: no malloc, no globals. Its
 * definitions, compiled twice: by executor.c for any model, and by executor_arena.c for models with their I/O
 * in the arena, one pool and no state, where the model fields of the other features are constants
 * (executor_internal.h), so that their code compiles away, and the calls are named microaot_arena_*. */
#include "microaot/executor.h"

#include <string.h>

#include "executor_internal.h"

#ifdef MICROAOT_PROFILE
#include "microaot/platform.h"
static const char *op_name(const microaot_model *model, uint32_t step) {
  return model->op_names != NULL ? model->op_names[step] : "";
}
#define MICROAOT_OP_BEGIN(model, step) microaot_platform_op_begin((int)(step), op_name((model), (step)))
#define MICROAOT_OP_END(model, step) microaot_platform_op_end((int)(step), op_name((model), (step)))
#else
#define MICROAOT_OP_BEGIN(model, step) ((void)0)
#define MICROAOT_OP_END(model, step) ((void)0)
#endif

/* Memory a context may share with others: the arena (with every context given the same buffer) and the
 * model's static memory (pools and default I/O buffers, common to all contexts of the model). Each has
 * a record of the context that wrote it last: the arena in its header, the static memory in
 * model->static_owner. A context reads its data there only while the record still names it. */
enum { REGION_NONE = 0u, REGION_ARENA = 1u, REGION_STATIC = 2u };

/* The last writer of `region`; a region without a record cannot be shared, so it is this context's. */
static uintptr_t read_owner(const microaot_context *ctx, unsigned region) {
  const microaot_model *m = ctx->model;
  uintptr_t owner = (uintptr_t)ctx;
  if (region == REGION_ARENA && m->arena_header != 0u) memcpy(&owner, ctx->arena - m->arena_header, sizeof owner);
  if (region == REGION_STATIC && static_owner_of(m) != NULL) owner = *static_owner_of(m);
  return owner;
}

static void write_owner(const microaot_context *ctx, unsigned region, uintptr_t owner) {
  const microaot_model *m = ctx->model;
  if (region == REGION_ARENA && m->arena_header != 0u) memcpy(ctx->arena - m->arena_header, &owner, sizeof owner);
  if (region == REGION_STATIC && static_owner_of(m) != NULL) *static_owner_of(m) = owner;
}

static int owns(const microaot_context *ctx, unsigned regions) {
  return ((regions & REGION_ARENA) == 0u || read_owner(ctx, REGION_ARENA) == (uintptr_t)ctx) &&
         ((regions & REGION_STATIC) == 0u || read_owner(ctx, REGION_STATIC) == (uintptr_t)ctx);
}

static int uses_static_io(const microaot_context *ctx, size_t slot) {
  const microaot_model *m = ctx->model;
  return !io_in_arena_of(m) && static_io_of(m) != NULL && ctx->slots[slot].buffer == static_io_of(m)[slot];
}

/* Where input/output `slot` (inputs first, then outputs) keeps its bytes. */
static unsigned slot_region(const microaot_context *ctx, size_t slot) {
  if (io_in_arena_of(ctx->model)) return io_pool_of(slot_desc(ctx->model, slot)) == 0u ? REGION_ARENA : REGION_STATIC;
  return uses_static_io(ctx, slot) ? REGION_STATIC : REGION_NONE;
}

static uint8_t *slot_address(const microaot_context *ctx, size_t slot) {
  const microaot_model *m = ctx->model;
  const microaot_io_desc *desc = slot_desc(m, slot);
  if (!io_in_arena_of(m)) return ctx->slots[slot].buffer;
  return (io_pool_of(desc) == 0u ? ctx->arena : m->pools[desc->pool]) + desc->offset;
}

/* Another context wrote `region`: this context's inputs there are gone. */
static void forget_inputs(microaot_context *ctx, unsigned region) {
  size_t i;
  for (i = 0; i < ctx->model->num_inputs; ++i) {
    if (slot_region(ctx, i) == region && ctx->slots[i].written == INPUT_WRITTEN) ctx->slots[i].written = INPUT_LOST;
  }
}

/* Another context wrote the arena: this context's inputs there, and its state, are gone. */
static void forget(microaot_context *ctx, unsigned region) {
  forget_inputs(ctx, region);
  if (region == REGION_ARENA && persistent_size_of(ctx->model) != 0u) ctx->persistent_lost = 1u;
}

/* This context is about to write `regions`: it becomes their last writer. */
static void claim(microaot_context *ctx, unsigned regions) {
  unsigned region;
  for (region = REGION_ARENA; region <= REGION_STATIC; region <<= 1u) {
    if ((regions & region) != 0u && read_owner(ctx, region) != (uintptr_t)ctx) {
      forget(ctx, region);
      write_owner(ctx, region, (uintptr_t)ctx);
    }
  }
}

/* The initial state into the persistent region; this context becomes the arena's last writer. */
static void write_initial_state(microaot_context *ctx) {
  const microaot_model *m = ctx->model;
  uint8_t *region;
  if (persistent_size_of(m) == 0u) return;
  region = ctx->arena + m->persistent_offset;
  claim(ctx, REGION_ARENA);
  if (m->persistent_init != NULL) {
    memcpy(region, m->persistent_init, persistent_size_of(m));
  } else {
    memset(region, 0, persistent_size_of(m));
  }
  ctx->persistent_lost = 0u;
}

/* Everything a run writes: the arena, the pools, and the default I/O buffers this context uses. */
static unsigned run_regions(const microaot_context *ctx) {
  unsigned regions = REGION_ARENA;
  size_t slot;
  if (num_pools_of(ctx->model) > 1u) regions |= REGION_STATIC;
  for (slot = 0; slot < slot_count(ctx->model); ++slot) {
    if (uses_static_io(ctx, slot)) regions |= REGION_STATIC;
  }
  return regions;
}

static void reset_slots(microaot_context *ctx) {
  const microaot_model *m = ctx->model;
  size_t slot;
  for (slot = 0; slot < slot_count(m); ++slot) {
    ctx->slots[slot].buffer = io_in_arena_of(m) || static_io_of(m) == NULL ? NULL : static_io_of(m)[slot];
    ctx->slots[slot].written = INPUT_UNSET;
  }
}

microaot_status MICROAOT_EXECUTOR(init)(microaot_context *ctx, const microaot_model *model, microaot_slot *slots,
                                        void *arena, size_t arena_size) {
  if (ctx == NULL || model == NULL || slots == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (state_of(ctx) == STATE_RUNNING) return MICROAOT_STATUS_BAD_STATE;
  /* IDLE until every check passes: a failed init leaves no usable (or stale) arena behind. */
  ctx->self = NULL;
  ctx->state = STATE_IDLE;
  ctx->model = model;
  ctx->slots = slots;
  ctx->arena = NULL;
  ctx->next_step = 0u;
  if (arena == NULL) {
    if (model->static_arena == NULL) return MICROAOT_STATUS_NULL_POINTER;
    arena = model->static_arena;
    arena_size = model->arena_size;
  }
  if (!executor_runs(model)) return MICROAOT_STATUS_UNSUPPORTED_MODEL;
  if (arena_size < model->arena_size) return MICROAOT_STATUS_ARENA_TOO_SMALL;
  if ((uintptr_t)arena % model->arena_align != 0u) return MICROAOT_STATUS_ARENA_MISALIGNED;
  ctx->arena = (uint8_t *)arena + model->arena_header;
  reset_slots(ctx);
  ctx->persistent_lost = 0u;
  write_initial_state(ctx);
  ctx->self = ctx;
  ctx->state = STATE_READY;
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_EXECUTOR(reset)(microaot_context *ctx) {
  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (state_of(ctx) == STATE_IDLE || state_of(ctx) == STATE_RUNNING) return MICROAOT_STATUS_BAD_STATE;
  write_initial_state(ctx);
  if (state_of(ctx) == STATE_STEPPING) ctx->state = STATE_READY; /* the run in progress read the old state */
  return MICROAOT_STATUS_OK;
}

/* The checks an input write shares (state, index, `size` unless NULL, a buffer to write to), then its
 * bookkeeping: this context becomes the last writer of the input's memory. */
static microaot_status begin_input_write(microaot_context *ctx, size_t index, const size_t *size, uint8_t **address) {
  if (!state_accepts_writes(ctx)) return MICROAOT_STATUS_BAD_STATE;
  if (index >= ctx->model->num_inputs) return MICROAOT_STATUS_BAD_INDEX;
  if (size != NULL && *size != ctx->model->inputs[index].size) return MICROAOT_STATUS_BAD_SIZE;
  *address = slot_address(ctx, index);
  if (*address == NULL) return MICROAOT_STATUS_NULL_POINTER; /* I/O outside, no default buffer, not bound */
  claim(ctx, slot_region(ctx, index));
  ctx->slots[index].written = INPUT_WRITTEN;
  ctx->state = STATE_READY;
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_EXECUTOR(set_input)(microaot_context *ctx, size_t index, const void *data, size_t size) {
  uint8_t *address = NULL;
  microaot_status status;
  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;
  status = begin_input_write(ctx, index, &size, &address);
  /* memmove: `data` may be another context's output in the same arena (models chained on one arena). */
  if (status == MICROAOT_STATUS_OK) memmove(address, data, size);
  return status;
}

microaot_status MICROAOT_EXECUTOR(input_ptr)(microaot_context *ctx, size_t index, void **data, size_t *size) {
  uint8_t *address = NULL;
  microaot_status status;
  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;
  status = begin_input_write(ctx, index, NULL, &address);
  if (status != MICROAOT_STATUS_OK) return status;
  *data = address;
  if (size != NULL) *size = ctx->model->inputs[index].size;
  return MICROAOT_STATUS_OK;
}

/* Every input written, and still in memory no other context wrote since: else which input is missing. */
static microaot_status check_inputs(microaot_context *ctx) {
  microaot_status status = MICROAOT_STATUS_OK;
  size_t slot;
  for (slot = 0; slot < ctx->model->num_inputs; ++slot) {
    if (!owns(ctx, slot_region(ctx, slot))) forget(ctx, slot_region(ctx, slot));
  }
  if (!owns(ctx, REGION_ARENA)) forget(ctx, REGION_ARENA);
  if (ctx->persistent_lost) return MICROAOT_STATUS_ARENA_CLOBBERED; /* the state is gone: reset */
  for (slot = 0; slot < ctx->model->num_inputs; ++slot) {
    if (ctx->slots[slot].written == INPUT_LOST) return MICROAOT_STATUS_ARENA_CLOBBERED;
    if (ctx->slots[slot].written == INPUT_UNSET) status = MICROAOT_STATUS_INPUT_NOT_SET;
  }
  return status;
}

static microaot_status start_run(microaot_context *ctx) {
  const microaot_model *m = ctx->model;
  microaot_status status;
  size_t slot;
  if (!state_accepts_writes(ctx)) return MICROAOT_STATUS_BAD_STATE;
  for (slot = 0; !io_in_arena_of(m) && slot < slot_count(m); ++slot) {
    if (ctx->slots[slot].buffer == NULL) return MICROAOT_STATUS_NULL_POINTER;
  }
  status = check_inputs(ctx);
  if (status != MICROAOT_STATUS_OK) return status;
  claim(ctx, run_regions(ctx));
  /* In the arena, operators may reuse the inputs' bytes: each input must be written again before the next run. */
  for (slot = 0; io_in_arena_of(m) && slot < m->num_inputs; ++slot) ctx->slots[slot].written = INPUT_UNSET;
  ctx->next_step = 0u;
  ctx->state = STATE_STEPPING;
  return MICROAOT_STATUS_OK;
}

/* Runs up to `max_ops` operators. Another context that wrote this one's memory meanwhile (from a hook or
 * an interrupt) spoils both: the records are cleared so that neither reads its data as valid. An operator
 * that refuses its data abandons the run (state READY: no output is readable). */
static microaot_status continue_run(microaot_context *ctx, size_t max_ops) {
  const microaot_model *m = ctx->model;
  const uint32_t left = m->num_steps - ctx->next_step;
  const uint32_t end = max_ops < left ? ctx->next_step + (uint32_t)max_ops : m->num_steps;
  const unsigned regions = run_regions(ctx);
  microaot_status status = MICROAOT_STATUS_OK;
  ctx->state = STATE_RUNNING;
  for (; ctx->next_step < end && status == MICROAOT_STATUS_OK; ++ctx->next_step) {
    MICROAOT_OP_BEGIN(m, ctx->next_step);
    status = m->run_step(ctx, ctx->next_step);
    MICROAOT_OP_END(m, ctx->next_step);
  }
  if (status != MICROAOT_STATUS_OK) {
    ctx->state = STATE_READY;
    if (persistent_size_of(m) != 0u) ctx->persistent_lost = 1u; /* the state may be half updated: reset */
    return status;
  }
  if (!owns(ctx, regions)) {
    if (!owns(ctx, regions & REGION_ARENA)) write_owner(ctx, REGION_ARENA, 0u);
    if (!owns(ctx, regions & REGION_STATIC)) write_owner(ctx, REGION_STATIC, 0u);
    ctx->state = STATE_READY;
    return MICROAOT_STATUS_ARENA_CLOBBERED;
  }
  ctx->state = ctx->next_step == m->num_steps ? STATE_DONE : STATE_STEPPING;
  return ctx->state == STATE_DONE ? MICROAOT_STATUS_OK : MICROAOT_STATUS_IN_PROGRESS;
}

microaot_status MICROAOT_EXECUTOR(run)(microaot_context *ctx) {
  microaot_status status;
  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;
  status = start_run(ctx);
  return status == MICROAOT_STATUS_OK ? continue_run(ctx, SIZE_MAX) : status;
}

microaot_status MICROAOT_EXECUTOR(run_steps)(microaot_context *ctx, size_t max_ops) {
  microaot_status status = MICROAOT_STATUS_OK;
  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (max_ops == 0u) return MICROAOT_STATUS_BAD_SIZE;
  if (state_of(ctx) != STATE_STEPPING) {
    status = start_run(ctx);
  } else if (!owns(ctx, run_regions(ctx))) {
    ctx->state = STATE_READY; /* another context ran in between: the intermediates are gone */
    status = MICROAOT_STATUS_ARENA_CLOBBERED;
  }
  return status == MICROAOT_STATUS_OK ? continue_run(ctx, max_ops) : status;
}

/* The checks an output read shares: a completed run, the index, and outputs no other context overwrote. */
static microaot_status find_output(const microaot_context *ctx, size_t index, const size_t *size, uint8_t **address) {
  const microaot_model *m = ctx->model;
  if (state_of(ctx) != STATE_DONE) return MICROAOT_STATUS_BAD_STATE;
  if (index >= m->num_outputs) return MICROAOT_STATUS_BAD_INDEX;
  if (size != NULL && *size != m->outputs[index].size) return MICROAOT_STATUS_BAD_SIZE;
  if (!owns(ctx, slot_region(ctx, m->num_inputs + index))) return MICROAOT_STATUS_ARENA_CLOBBERED;
  *address = slot_address(ctx, m->num_inputs + index);
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_EXECUTOR(get_output)(microaot_context *ctx, size_t index, void *data, size_t size) {
  uint8_t *address = NULL;
  microaot_status status;
  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;
  status = find_output(ctx, index, &size, &address);
  /* memmove: `data` may be another context's input buffer in the same arena. */
  if (status == MICROAOT_STATUS_OK) memmove(data, address, size);
  return status;
}

microaot_status MICROAOT_EXECUTOR(output_ptr)(microaot_context *ctx, size_t index, const void **data, size_t *size) {
  uint8_t *address = NULL;
  microaot_status status;
  if (ctx == NULL || data == NULL) return MICROAOT_STATUS_NULL_POINTER;
  status = find_output(ctx, index, NULL, &address);
  if (status != MICROAOT_STATUS_OK) return status;
  *data = address;
  if (size != NULL) *size = ctx->model->outputs[index].size;
  return MICROAOT_STATUS_OK;
}

microaot_status MICROAOT_EXECUTOR(destroy)(microaot_context *ctx) {
  if (ctx == NULL) return MICROAOT_STATUS_NULL_POINTER;
  if (state_of(ctx) == STATE_RUNNING) return MICROAOT_STATUS_BAD_STATE;
  ctx->self = NULL;
  ctx->state = STATE_IDLE;
  ctx->arena = NULL;
  return MICROAOT_STATUS_OK;
}
