/* What the executor's source files share (executor_core.h through executor.c and executor_arena.c,
 * executor_bind.c, executor_once.c, graph_load.c); not an API. */
#ifndef MICROAOT_EXECUTOR_INTERNAL_H
#define MICROAOT_EXECUTOR_INTERNAL_H

#include "microaot/executor.h"

/* The model fields of the features executor_arena.c leaves out (I/O outside the arena, further pools, state
 * kept from run to run), read through these: there they are the constants of a model without them, so that
 * the code of those features compiles away, and the calls are named microaot_arena_* (microaot/executor.h). */
#ifdef MICROAOT_EXECUTOR_ARENA_ONLY
#define MICROAOT_EXECUTOR(name) microaot_arena_##name
#define MICROAOT_EXECUTOR_FIELD(m, field, arena_only_value) ((void)(m), (arena_only_value))
#else
#define MICROAOT_EXECUTOR(name) microaot_##name
#define MICROAOT_EXECUTOR_FIELD(m, field, arena_only_value) ((m)->field)
#endif

static inline uint32_t io_in_arena_of(const microaot_model *m) { return MICROAOT_EXECUTOR_FIELD(m, io_in_arena, 1u); }
static inline uint32_t num_pools_of(const microaot_model *m) { return MICROAOT_EXECUTOR_FIELD(m, num_pools, 1u); }
static inline uint32_t persistent_size_of(const microaot_model *m) {
  return MICROAOT_EXECUTOR_FIELD(m, persistent_size, 0u);
}
static inline uint8_t *const *static_io_of(const microaot_model *m) {
  return MICROAOT_EXECUTOR_FIELD(m, static_io, (uint8_t *const *)NULL);
}
static inline uintptr_t *static_owner_of(const microaot_model *m) {
  return MICROAOT_EXECUTOR_FIELD(m, static_owner, (uintptr_t *)NULL);
}
/* The pool of an input or output in the arena: 0, the arena itself, when the model has no other. */
static inline uint32_t io_pool_of(const microaot_io_desc *desc) { return MICROAOT_EXECUTOR_FIELD(desc, pool, 0u); }

/* Whether this build of the core runs `m`: any model, or (arena-only) one without those features, which init
 * refuses otherwise rather than run it wrong. */
static inline int executor_runs(const microaot_model *m) {
  return io_in_arena_of(m) == m->io_in_arena && num_pools_of(m) == m->num_pools &&
         persistent_size_of(m) == m->persistent_size && static_io_of(m) == m->static_io &&
         static_owner_of(m) == m->static_owner;
}

enum { STATE_IDLE = 0, STATE_READY, STATE_RUNNING, STATE_STEPPING, STATE_DONE };

/* microaot_slot.written of an input: not written, written, or written but overwritten by another context. */
enum { INPUT_UNSET = 0, INPUT_WRITTEN = 1, INPUT_LOST = 2 };

static inline unsigned state_of(const microaot_context *ctx) {
  return ctx->self == ctx ? ctx->state : (unsigned)STATE_IDLE;
}

static inline int state_accepts_writes(const microaot_context *ctx) {
  const unsigned state = state_of(ctx);
  return state == STATE_READY || state == STATE_DONE;
}

static inline size_t slot_count(const microaot_model *m) {
  return io_in_arena_of(m) ? m->num_inputs : (size_t)m->num_inputs + m->num_outputs;
}

static inline const microaot_io_desc *slot_desc(const microaot_model *m, size_t slot) {
  return slot < m->num_inputs ? &m->inputs[slot] : &m->outputs[slot - m->num_inputs];
}

#endif /* MICROAOT_EXECUTOR_INTERNAL_H */
