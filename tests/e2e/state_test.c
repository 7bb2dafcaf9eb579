/* State across runs on a real streaming model (module name "model", resource variables): two contexts on
 * two arenas keep two states, state carries over N runs, reset brings back the fresh result, and a context
 * whose state another context overwrote (same arena) is told so instead of running on it.
 * Usage: state_test N A FRESH_A AFTER_N_A B FRESH_B: raw files of one input (A, B), the outputs of one run
 * from the initial state (FRESH_*) and of N runs of A in a row (AFTER_N_A; "-" when there is no golden file:
 * then A's N-th output and state must be what they are when A runs alone, and the state must change). Exit 0 =
 * pass; else the failed check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory_map.h"
#include "model.h"

#if MODEL_NUM_INPUTS != 1 || MODEL_NUM_OUTPUTS != 1
#error "state_test takes a model of one input and one output"
#endif

static unsigned char arena_a[MODEL_ARENA_SIZE + MODEL_ARENA_ALIGN];
static unsigned char arena_b[MODEL_ARENA_SIZE + MODEL_ARENA_ALIGN];
static unsigned char input_a[MODEL_INPUT_0_SIZE], input_b[MODEL_INPUT_0_SIZE];
static unsigned char fresh_a[MODEL_OUTPUT_0_SIZE], after_n_a[MODEL_OUTPUT_0_SIZE], fresh_b[MODEL_OUTPUT_0_SIZE];
static unsigned char last_output[MODEL_OUTPUT_0_SIZE];

static int read_exactly(const char *path, unsigned char *data, size_t size) {
  FILE *f = fopen(path, "rb");
  int ok = f != NULL && fread(data, 1, size, f) == size && fgetc(f) == EOF;
  if (f != NULL) fclose(f);
  return ok;
}

static void *aligned(unsigned char *buffer) {
  const size_t misalign = (size_t)buffer % MODEL_ARENA_ALIGN;
  return buffer + (misalign == 0u ? 0u : MODEL_ARENA_ALIGN - misalign);
}

/* One run of `input`; 1 when it succeeds and its output (kept in last_output) equals `expected` (any output
 * when NULL). */
static int run_gives(model_context *ctx, const unsigned char *input, const unsigned char *expected) {
  unsigned char *out = last_output;
  return model_set_input(ctx, 0, input, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_OK &&
         model_run(ctx) == MICROAOT_STATUS_OK &&
         model_get_output(ctx, 0, out, MODEL_OUTPUT_0_SIZE) == MICROAOT_STATUS_OK &&
         (expected == NULL || memcmp(out, expected, MODEL_OUTPUT_0_SIZE) == 0);
}

/* The persistent region of the context on `arena`. */
static unsigned char *state_of(unsigned char *arena) {
  return (unsigned char *)aligned(arena) + MODEL_ARENA_HEADER_SIZE + MODEL_PERSISTENT_OFFSET;
}

/* Without a golden file: A's output and state after n runs alone; the state must have changed (else the test
 * could not see it carried: a model's output may not show it, keyword_scrambled's saturates). */
static unsigned char initial_state[MODEL_PERSISTENT_SIZE], state_after_n[MODEL_PERSISTENT_SIZE];
static int solo_after_n(model_context *ctx, int n) {
  int i;
  if (model_init(ctx, aligned(arena_a), MODEL_ARENA_SIZE) != MICROAOT_STATUS_OK) return 0;
  memcpy(initial_state, state_of(arena_a), sizeof initial_state);
  for (i = 1; i <= n; ++i) {
    if (!run_gives(ctx, input_a, i == 1 ? fresh_a : NULL)) return 0;
  }
  memcpy(after_n_a, last_output, sizeof after_n_a);
  memcpy(state_after_n, state_of(arena_a), sizeof state_after_n);
  return memcmp(initial_state, state_after_n, sizeof state_after_n) != 0;
}

int main(int argc, char **argv) {
  model_context a, b, c;
  int n, i, golden_after_n;
  if (argc != 7) return 100;
  golden_after_n = strcmp(argv[4], "-") != 0;
  n = atoi(argv[1]);
  if (n < 2 || !read_exactly(argv[2], input_a, sizeof input_a) || !read_exactly(argv[3], fresh_a, sizeof fresh_a) ||
      (golden_after_n && !read_exactly(argv[4], after_n_a, sizeof after_n_a)) ||
      !read_exactly(argv[5], input_b, sizeof input_b) || !read_exactly(argv[6], fresh_b, sizeof fresh_b)) {
    return 101;
  }
  if (MODEL_PERSISTENT_SIZE == 0u) return 1; /* not a model with state */
  if (!golden_after_n && !solo_after_n(&c, n)) return 2;
  if (model_init(&a, aligned(arena_a), MODEL_ARENA_SIZE) != MICROAOT_STATUS_OK) return 3;
  if (model_init(&b, aligned(arena_b), MODEL_ARENA_SIZE) != MICROAOT_STATUS_OK) return 4;
  /* A carries its state over n runs while B, on its own arena, runs from a reset state each time. */
  for (i = 1; i <= n; ++i) {
    if (!run_gives(&a, input_a, i == 1 ? fresh_a : i == n ? after_n_a : NULL)) return 10;
    if (model_reset(&b) != MICROAOT_STATUS_OK || !run_gives(&b, input_b, fresh_b)) return 5;
  }
  if (!golden_after_n && memcmp(state_of(arena_a), state_after_n, sizeof state_after_n) != 0) return 11;
  /* Reset brings back the fresh result. */
  if (model_reset(&a) != MICROAOT_STATUS_OK || !run_gives(&a, input_a, fresh_a)) return 6;
  /* C shares A's arena: its init writes its initial state there, so A's state is gone until A resets. */
  if (model_init(&c, aligned(arena_a), MODEL_ARENA_SIZE) != MICROAOT_STATUS_OK) return 7;
  if (model_set_input(&a, 0, input_a, MODEL_INPUT_0_SIZE) != MICROAOT_STATUS_OK) return 8;
  if (model_run(&a) != MICROAOT_STATUS_ARENA_CLOBBERED) return 9;
  if (model_reset(&a) != MICROAOT_STATUS_OK || !run_gives(&a, input_a, fresh_a)) return 30;
  /* A reset in the middle of a run_steps run abandons it. */
  if (model_set_input(&a, 0, input_a, MODEL_INPUT_0_SIZE) != MICROAOT_STATUS_OK) return 31;
  if (model_run_steps(&a, 1) != MICROAOT_STATUS_IN_PROGRESS) return 32;
  if (model_reset(&a) != MICROAOT_STATUS_OK) return 33;
  if (model_run_steps(&a, 1) != MICROAOT_STATUS_INPUT_NOT_SET) return 34;
  if (!run_gives(&a, input_a, fresh_a)) return 35;
  if (model_destroy(&a) != MICROAOT_STATUS_OK || model_reset(&a) != MICROAOT_STATUS_BAD_STATE) return 36;
  return 0;
}
