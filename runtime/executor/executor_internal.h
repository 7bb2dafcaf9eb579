/* What the executor's source files share (executor.c, executor_bind.c, executor_once.c); not an API. */
#ifndef MICROAOT_EXECUTOR_INTERNAL_H
#define MICROAOT_EXECUTOR_INTERNAL_H

#include "microaot/executor.h"

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
  return m->io_in_arena ? m->num_inputs : (size_t)m->num_inputs + m->num_outputs;
}

static inline const microaot_io_desc *slot_desc(const microaot_model *m, size_t slot) {
  return slot < m->num_inputs ? &m->inputs[slot] : &m->outputs[slot - m->num_inputs];
}

#endif /* MICROAOT_EXECUTOR_INTERNAL_H */
