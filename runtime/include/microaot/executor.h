/* The executor core: the API state machine behind every generated model (init, set_input, input_ptr,
 * bind_input/bind_output, run, run_steps, get_output, output_ptr, destroy), written once over a constant
 * model descriptor. The AOT compiler emits the descriptor and a step function that calls the kernels;
 * an interpreter fills the same descriptor from a model blob and supplies a step function that decodes it. */
#ifndef MICROAOT_EXECUTOR_H
#define MICROAOT_EXECUTOR_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct microaot_context;

/* Runs operator `step` (0 <= step < num_steps) of the schedule on the context's memory. Returns OK, or the
 * status of a kernel that refused its data (MICROAOT_STATUS_VALUE_OUT_OF_RANGE), which ends the run. */
typedef microaot_status (*microaot_step_fn)(const struct microaot_context *ctx, uint32_t step);

/* Where an input or output lives. With I/O in the arena: `offset` bytes into memory `pool` (0: the arena
 * bound by init, after its header; k >= 1: pools[k]). With I/O outside the arena: in the buffer bound to
 * the context's slot, and `offset`/`pool` are unused. */
typedef struct {
  uint32_t offset;
  uint32_t size; /* bytes */
  uint32_t pool;
} microaot_io_desc;

/* Everything the core knows about one model; constant, in flash. */
typedef struct microaot_model {
  uint32_t arena_size;   /* bytes init needs: arena_header + the planned activations (0: no arena at all) */
  uint32_t arena_header; /* bytes at the start of the arena that record its last writer (0 when no arena) */
  uint32_t arena_align;  /* required alignment of the arena given to init */
  uint32_t io_align;     /* I/O outside the arena: required alignment of a bound buffer */
  uint32_t num_inputs;
  uint32_t num_outputs;
  uint32_t num_steps;
  uint32_t num_pools;  /* 1 + the further pools (--pool) */
  uint32_t io_in_arena; /* 1: inputs/outputs in the arena (io_desc offsets); 0: in buffers bound per slot */
  const microaot_io_desc *inputs;
  const microaot_io_desc *outputs;
  uint8_t *const *pools;       /* [k]: the base of pool k >= 1 ([0] unused); NULL when num_pools is 1 */
  uint8_t *static_arena;       /* init(ctx, NULL, 0) uses it; NULL when compiled out */
  uint8_t *const *static_io;   /* I/O outside: each slot's default buffer (inputs, then outputs), or NULL */
  uintptr_t *static_owner;     /* last writer of the model's own static memory (pools, static_io), or NULL */
  microaot_step_fn run_step;
  const char *const *op_names; /* per step, for the profiling hooks; NULL when not kept */
  const void *program;         /* the executor kind's own data (an interpreter's blob); NULL for AOT */
  /* State kept from run to run (resource variables): `persistent_size` bytes at `persistent_offset` in the
   * arena (after its header), never reused by the activations. init and reset write `persistent_init`
   * there (all zeros when NULL); 0 bytes for a model without state. */
  uint32_t persistent_offset;
  uint32_t persistent_size;
  const uint8_t *persistent_init;
} microaot_model;

/* One input or output of a context. */
typedef struct {
  uint8_t *buffer; /* I/O outside the arena: the buffer bound to it (NULL: none) */
  uint8_t written; /* inputs: 0 not written since init (I/O in the arena: since the last run), 1 written,
                      2 written but overwritten since by another context */
} microaot_slot;

/* One instance of a model: owned by the caller, fields private. It works where init put it: a copy is
 * IDLE until init. `slots` is the caller's array of num_inputs (+ num_outputs with I/O outside) slots. */
typedef struct microaot_context {
  const struct microaot_context *self; /* this context once init succeeded here; anything else = IDLE */
  const microaot_model *model;
  uint8_t *arena; /* the first planned byte, after the header */
  microaot_slot *slots;
  uint32_t next_step; /* the next operator of a run in progress */
  uint8_t state;
  uint8_t persistent_lost; /* another context wrote the arena since this one's state was in it: reset */
} microaot_context;

/* The calls of the generated API, one to one (NAME.h documents them). The bind calls (executor_bind.c)
 * exist only for models with I/O outside the arena. reset restores the initial state (model->persistent_init)
 * and abandons a run in progress; a no-op for a model without state. */
#define MICROAOT_EXECUTOR_CALLS(X)                                                                        \
  X(init, (microaot_context * ctx, const microaot_model *model, microaot_slot *slots, void *arena,         \
           size_t arena_size))                                                                            \
  X(set_input, (microaot_context * ctx, size_t index, const void *data, size_t size))                     \
  X(input_ptr, (microaot_context * ctx, size_t index, void **data, size_t *size))                         \
  X(run, (microaot_context * ctx))                                                                        \
  X(run_steps, (microaot_context * ctx, size_t max_ops))                                                  \
  X(get_output, (microaot_context * ctx, size_t index, void *data, size_t size))                          \
  X(output_ptr, (microaot_context * ctx, size_t index, const void **data, size_t *size))                  \
  X(destroy, (microaot_context * ctx))                                                                    \
  X(reset, (microaot_context * ctx))

/* microaot_init, microaot_set_input, ... (executor.c, any model), and microaot_arena_init, ... the same
 * calls of the arena-only build (executor_arena.c: I/O in the arena, one pool, no state; its init returns
 * MICROAOT_STATUS_UNSUPPORTED_MODEL for any other model), which the compiler picks when the model allows. */
#define MICROAOT_DECLARE_CALL(name, params) microaot_status microaot_##name params;
#define MICROAOT_DECLARE_ARENA_CALL(name, params) microaot_status microaot_arena_##name params;
MICROAOT_EXECUTOR_CALLS(MICROAOT_DECLARE_CALL)
MICROAOT_EXECUTOR_CALLS(MICROAOT_DECLARE_ARENA_CALL)
#undef MICROAOT_DECLARE_CALL
#undef MICROAOT_DECLARE_ARENA_CALL
microaot_status microaot_bind_input(microaot_context *ctx, size_t index, void *buffer, size_t size);
microaot_status microaot_bind_output(microaot_context *ctx, size_t index, void *buffer, size_t size);

/* The microTVM entry's body, one pointer per tensor in `inputs`/`outputs`: init on the static arena, each
 * input copied in, run, each output copied out, destroy (executor_once.c); with I/O outside the arena,
 * each input and output bound instead of copied (executor_bind.c). */
microaot_status microaot_run_once(microaot_context *ctx, const microaot_model *model, microaot_slot *slots,
                                  void *const *inputs, void *const *outputs);
microaot_status microaot_run_once_bound(microaot_context *ctx, const microaot_model *model, microaot_slot *slots,
                                        void *const *inputs, void *const *outputs);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_EXECUTOR_H */
