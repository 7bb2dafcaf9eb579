/* Exercises the generated API of the demo model (module name "demo") for misuse: every wrong call must
 * return its status code and leave the context usable, and no misuse may give a result with status OK.
 * Built by cli_test.cpp with -Werror, once plain and once with -DMICROAOT_PROFILE (calls from inside
 * run()). Exit 0 = pass. */
#include <stdio.h>
#include <string.h>

#include "demo.h"
#ifdef MICROAOT_PROFILE
#include "platform.h"
#endif

static int failures = 0;

#define EXPECT_STATUS(call, expected)                                                             \
  do {                                                                                            \
    microaot_status got_ = (call);                                                                \
    if (got_ != (expected)) {                                                                     \
      fprintf(stderr, "line %d: %s returned %d, expected %d\n", __LINE__, #call, (int)got_, (int)(expected)); \
      ++failures;                                                                                 \
    }                                                                                             \
  } while (0)

static unsigned char arena_storage[DEMO_ARENA_SIZE + 2 * DEMO_ARENA_ALIGN];

static void *aligned_arena(size_t misalign) {
  size_t address = (size_t)arena_storage;
  size_t pad = (DEMO_ARENA_ALIGN - address % DEMO_ARENA_ALIGN) % DEMO_ARENA_ALIGN;
  return arena_storage + pad + misalign;
}

static void check_before_init(void) {
  demo_context ctx;
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char output[DEMO_OUTPUT_0_SIZE];
  void *in_ptr = NULL;
  const void *out_ptr = NULL;
  size_t size = 0;
  memset(&ctx, 0, sizeof ctx); /* IDLE */
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_input_ptr(&ctx, 0, &in_ptr, &size), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_output_ptr(&ctx, 0, &out_ptr, &size), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK); /* already IDLE: harmless */
  /* NULL context, for every function. */
  EXPECT_STATUS(demo_init(NULL, NULL, 0), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_init(NULL, aligned_arena(0), DEMO_ARENA_SIZE), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_set_input(NULL, 0, input, sizeof input), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_input_ptr(NULL, 0, &in_ptr, &size), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_run(NULL), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_get_output(NULL, 0, output, sizeof output), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_output_ptr(NULL, 0, &out_ptr, &size), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_run_steps(NULL, 1), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_destroy(NULL), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_run_steps(&ctx, 1), MICROAOT_STATUS_BAD_STATE);
}

static void check_init_arena(void) {
  demo_context ctx;
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), DEMO_ARENA_SIZE - 1), MICROAOT_STATUS_ARENA_TOO_SMALL);
  if (DEMO_ARENA_ALIGN > 1) {
    EXPECT_STATUS(demo_init(&ctx, aligned_arena(1), DEMO_ARENA_SIZE), MICROAOT_STATUS_ARENA_MISALIGNED);
  }
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), 0), MICROAOT_STATUS_ARENA_TOO_SMALL);
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), DEMO_ARENA_SIZE), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), DEMO_ARENA_SIZE + DEMO_ARENA_ALIGN), MICROAOT_STATUS_OK);
  /* A failed init unbinds: the context must not run on the arena it had before. */
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), DEMO_ARENA_SIZE - 1), MICROAOT_STATUS_ARENA_TOO_SMALL);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), DEMO_ARENA_SIZE), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK);
  /* init works on a context full of garbage, as an uninitialized local would be. */
  memset(&ctx, 0xa5, sizeof ctx);
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), 1), MICROAOT_STATUS_ARENA_TOO_SMALL);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_BAD_STATE);
  memset(&ctx, 0xa5, sizeof ctx);
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), DEMO_ARENA_SIZE), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK);
}

static void check_calls_after_init(void) {
  demo_context ctx;
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char output[DEMO_OUTPUT_0_SIZE];
  void *in_ptr = NULL;
  const void *out_ptr = NULL;
  size_t size = 0;
  memset(input, 0, sizeof input);
  EXPECT_STATUS(demo_init(&ctx, NULL, 0), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_INPUT_NOT_SET);
  EXPECT_STATUS(demo_run_steps(&ctx, 1), MICROAOT_STATUS_INPUT_NOT_SET);
  EXPECT_STATUS(demo_set_input(&ctx, 0, NULL, sizeof input), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_set_input(&ctx, DEMO_NUM_INPUTS, input, sizeof input), MICROAOT_STATUS_BAD_INDEX);
  EXPECT_STATUS(demo_set_input(&ctx, (size_t)-1, input, sizeof input), MICROAOT_STATUS_BAD_INDEX);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input - 1), MICROAOT_STATUS_BAD_SIZE);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input + 1), MICROAOT_STATUS_BAD_SIZE);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, 0), MICROAOT_STATUS_BAD_SIZE);
  EXPECT_STATUS(demo_input_ptr(&ctx, 0, NULL, &size), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_input_ptr(&ctx, DEMO_NUM_INPUTS, &in_ptr, &size), MICROAOT_STATUS_BAD_INDEX);
  EXPECT_STATUS(demo_input_ptr(&ctx, 0, &in_ptr, NULL), MICROAOT_STATUS_OK); /* size is optional */
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_output_ptr(&ctx, 0, &out_ptr, &size), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_input_ptr(&ctx, 0, &in_ptr, &size), MICROAOT_STATUS_OK);
  if (in_ptr == NULL || size != DEMO_INPUT_0_SIZE) {
    fprintf(stderr, "input_ptr gave %p, %u bytes\n", in_ptr, (unsigned)size);
    ++failures;
  }
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&ctx, DEMO_NUM_OUTPUTS, output, sizeof output), MICROAOT_STATUS_BAD_INDEX);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output + 1), MICROAOT_STATUS_BAD_SIZE);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output - 1), MICROAOT_STATUS_BAD_SIZE);
  EXPECT_STATUS(demo_get_output(&ctx, 0, NULL, sizeof output), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_output_ptr(&ctx, 0, NULL, &size), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_output_ptr(&ctx, DEMO_NUM_OUTPUTS, &out_ptr, &size), MICROAOT_STATUS_BAD_INDEX);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_output_ptr(&ctx, 0, &out_ptr, &size), MICROAOT_STATUS_OK);
  if (out_ptr == NULL || memcmp(out_ptr, output, sizeof output) != 0) {
    fprintf(stderr, "output_ptr does not show the output get_output copied\n");
    ++failures;
  }
  /* A new input write makes the last outputs unreadable until the next run. */
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_output_ptr(&ctx, 0, &out_ptr, &size), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK);
  /* Use after destroy. */
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_input_ptr(&ctx, 0, &in_ptr, &size), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_output_ptr(&ctx, 0, &out_ptr, &size), MICROAOT_STATUS_BAD_STATE);
}

/* init on the static arena, then one run on `input`: its output. */
static void init_and_run(demo_context *ctx, const unsigned char *input, unsigned char *output) {
  EXPECT_STATUS(demo_init(ctx, NULL, 0), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_set_input(ctx, 0, input, DEMO_INPUT_0_SIZE), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(ctx), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(ctx, 0, output, DEMO_OUTPUT_0_SIZE), MICROAOT_STATUS_OK);
}

/* A second run needs the inputs written again (the first may have overwritten them in the arena); then
 * it gives the same outputs. */
static void check_run_twice(void) {
  demo_context ctx;
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char first[DEMO_OUTPUT_0_SIZE];
  unsigned char second[DEMO_OUTPUT_0_SIZE];
  size_t i;
  for (i = 0; i < sizeof input; ++i) input[i] = (unsigned char)(i * 13u + 5u);
  init_and_run(&ctx, input, first);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_INPUT_NOT_SET);
  EXPECT_STATUS(demo_get_output(&ctx, 0, second, sizeof second), MICROAOT_STATUS_OK); /* the refusal changed nothing */
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&ctx, 0, second, sizeof second), MICROAOT_STATUS_OK);
  if (memcmp(first, second, sizeof first) != 0) {
    fprintf(stderr, "a second run on the same input gave different outputs\n");
    ++failures;
  }
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK);
}

#ifdef MICROAOT_PROFILE
/* Built with -DMICROAOT_PROFILE, run() calls this hook before every operator: calls on the running
 * context (reentry, as an interrupt handler might attempt) must be refused, not corrupt the run. */
static demo_context *running_ctx = NULL;
static int hook_calls = 0;

void microaot_platform_op_begin(int step, const char *op_name) {
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char output[DEMO_OUTPUT_0_SIZE];
  void *in_ptr = NULL;
  const void *out_ptr = NULL;
  (void)step;
  (void)op_name;
  if (running_ctx == NULL) return;
  ++hook_calls;
  memset(input, 0, sizeof input);
  EXPECT_STATUS(demo_run(running_ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_set_input(running_ctx, 0, input, sizeof input), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_input_ptr(running_ctx, 0, &in_ptr, NULL), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_get_output(running_ctx, 0, output, sizeof output), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_output_ptr(running_ctx, 0, &out_ptr, NULL), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_destroy(running_ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_run_steps(running_ctx, 1), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_init(running_ctx, NULL, 0), MICROAOT_STATUS_BAD_STATE);
}

static void check_reentry_is_refused(void) {
  demo_context ctx;
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char output[DEMO_OUTPUT_0_SIZE];
  memset(input, 0, sizeof input);
  EXPECT_STATUS(demo_init(&ctx, NULL, 0), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
  running_ctx = &ctx;
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_OK);
  running_ctx = NULL;
  if (hook_calls != (int)DEMO_NUM_OPS) {
    fprintf(stderr, "the profiling hook ran %d times for %u operators\n", hook_calls, (unsigned)DEMO_NUM_OPS);
    ++failures;
  }
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK);
}
#endif

/* Two instances on two arenas give the same answer as one: no hidden shared state. */
static void check_two_instances(void) {
  static unsigned char second_storage[DEMO_ARENA_SIZE + DEMO_ARENA_ALIGN];
  demo_context a;
  demo_context b;
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char out_a[DEMO_OUTPUT_0_SIZE];
  unsigned char out_b[DEMO_OUTPUT_0_SIZE];
  size_t i;
  size_t pad = (DEMO_ARENA_ALIGN - (size_t)second_storage % DEMO_ARENA_ALIGN) % DEMO_ARENA_ALIGN;
  for (i = 0; i < sizeof input; ++i) input[i] = (unsigned char)(i * 37u + 11u);
  EXPECT_STATUS(demo_init(&a, aligned_arena(0), DEMO_ARENA_SIZE), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_init(&b, second_storage + pad, DEMO_ARENA_SIZE), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_set_input(&a, 0, input, sizeof input), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_set_input(&b, 0, input, sizeof input), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&a), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&b), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&a, 0, out_a, sizeof out_a), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&b, 0, out_b, sizeof out_b), MICROAOT_STATUS_OK);
  if (memcmp(out_a, out_b, sizeof out_a) != 0) {
    fprintf(stderr, "two instances disagree\n");
    ++failures;
  }
}

/* run_steps: any slice size gives the outputs of run(); between slices only run_steps, init and destroy. */
static void check_run_steps(void) {
  demo_context ctx;
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char whole[DEMO_OUTPUT_0_SIZE];
  unsigned char sliced[DEMO_OUTPUT_0_SIZE];
  void *in_ptr = NULL;
  const void *out_ptr = NULL;
  size_t i, max_ops, calls;
  microaot_status status;
  for (i = 0; i < sizeof input; ++i) input[i] = (unsigned char)(i * 29u + 3u);
  init_and_run(&ctx, input, whole);
  for (max_ops = 1; max_ops <= DEMO_NUM_OPS + 1u; ++max_ops) {
    EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
    calls = 0;
    while ((status = demo_run_steps(&ctx, max_ops)) == MICROAOT_STATUS_IN_PROGRESS) {
      ++calls;
      EXPECT_STATUS(demo_get_output(&ctx, 0, sliced, sizeof sliced), MICROAOT_STATUS_BAD_STATE);
      EXPECT_STATUS(demo_output_ptr(&ctx, 0, &out_ptr, NULL), MICROAOT_STATUS_BAD_STATE);
      EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_BAD_STATE);
      EXPECT_STATUS(demo_input_ptr(&ctx, 0, &in_ptr, NULL), MICROAOT_STATUS_BAD_STATE);
      EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_BAD_STATE);
    }
    EXPECT_STATUS(status, MICROAOT_STATUS_OK);
    if (calls + 1u != (DEMO_NUM_OPS + max_ops - 1u) / max_ops) {
      fprintf(stderr, "run_steps(%u) took %u calls for %u operators\n", (unsigned)max_ops, (unsigned)(calls + 1u),
              (unsigned)DEMO_NUM_OPS);
      ++failures;
    }
    EXPECT_STATUS(demo_get_output(&ctx, 0, sliced, sizeof sliced), MICROAOT_STATUS_OK);
    if (memcmp(whole, sliced, sizeof whole) != 0) {
      fprintf(stderr, "run_steps(%u) and run disagree\n", (unsigned)max_ops);
      ++failures;
    }
  }
  EXPECT_STATUS(demo_run_steps(&ctx, 0), MICROAOT_STATUS_BAD_SIZE);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run_steps(&ctx, 1), DEMO_NUM_OPS > 1u ? MICROAOT_STATUS_IN_PROGRESS : MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK); /* abandons the run */
  EXPECT_STATUS(demo_run_steps(&ctx, 1), MICROAOT_STATUS_BAD_STATE);
}

/* Two contexts on one (static) arena: whichever wrote last owns it, the other gets ARENA_CLOBBERED and
 * never a result computed from the other's data. */
static void check_shared_arena(void) {
  demo_context a;
  demo_context b;
  unsigned char in_a[DEMO_INPUT_0_SIZE];
  unsigned char in_b[DEMO_INPUT_0_SIZE];
  unsigned char out_a[DEMO_OUTPUT_0_SIZE];
  unsigned char out_b[DEMO_OUTPUT_0_SIZE];
  unsigned char alone[DEMO_OUTPUT_0_SIZE];
  const void *out_ptr = NULL;
  size_t i;
  for (i = 0; i < sizeof in_a; ++i) {
    in_a[i] = (unsigned char)(i * 7u + 1u);
    in_b[i] = (unsigned char)(255u - i * 3u);
  }
  init_and_run(&a, in_a, alone);
  EXPECT_STATUS(demo_init(&b, NULL, 0), MICROAOT_STATUS_OK);
  /* The sequence: a_set_input; b_set_input; b_run; a_run. */
  EXPECT_STATUS(demo_set_input(&a, 0, in_a, sizeof in_a), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_set_input(&b, 0, in_b, sizeof in_b), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&b), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&a), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_STATUS(demo_run_steps(&a, 1), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_STATUS(demo_get_output(&a, 0, out_a, sizeof out_a), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_get_output(&b, 0, out_b, sizeof out_b), MICROAOT_STATUS_OK);
  /* a writes again: its run is right, and b's outputs are gone. */
  EXPECT_STATUS(demo_set_input(&a, 0, in_a, sizeof in_a), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&b, 0, out_b, sizeof out_b), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_STATUS(demo_output_ptr(&b, 0, &out_ptr, NULL), MICROAOT_STATUS_ARENA_CLOBBERED);
  EXPECT_STATUS(demo_run(&a), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&a, 0, out_a, sizeof out_a), MICROAOT_STATUS_OK);
  if (memcmp(out_a, alone, sizeof alone) != 0) {
    fprintf(stderr, "a's run after b's differs from a's run alone\n");
    ++failures;
  }
  /* input_ptr hands out the arena: another context's run in between spoils what was written there. */
  {
    void *in_ptr = NULL;
    EXPECT_STATUS(demo_input_ptr(&a, 0, &in_ptr, NULL), MICROAOT_STATUS_OK);
    memcpy(in_ptr, in_a, sizeof in_a);
    EXPECT_STATUS(demo_set_input(&b, 0, in_b, sizeof in_b), MICROAOT_STATUS_OK);
    EXPECT_STATUS(demo_run(&b), MICROAOT_STATUS_OK);
    EXPECT_STATUS(demo_run(&a), MICROAOT_STATUS_ARENA_CLOBBERED);
  }
  /* A stepped run interrupted by the other context's run. */
  EXPECT_STATUS(demo_set_input(&a, 0, in_a, sizeof in_a), MICROAOT_STATUS_OK);
  if (DEMO_NUM_OPS > 1u) {
    EXPECT_STATUS(demo_run_steps(&a, 1), MICROAOT_STATUS_IN_PROGRESS);
    EXPECT_STATUS(demo_set_input(&b, 0, in_b, sizeof in_b), MICROAOT_STATUS_OK);
    EXPECT_STATUS(demo_run(&b), MICROAOT_STATUS_OK);
    EXPECT_STATUS(demo_run_steps(&a, DEMO_NUM_OPS), MICROAOT_STATUS_ARENA_CLOBBERED);
    EXPECT_STATUS(demo_get_output(&b, 0, out_b, sizeof out_b), MICROAOT_STATUS_OK);
  }
  EXPECT_STATUS(demo_destroy(&a), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_destroy(&b), MICROAOT_STATUS_OK);
}

/* A copy of a context is not a context: it would share the original's slots. */
static void check_copy_is_refused(void) {
  demo_context ctx;
  demo_context copy;
  unsigned char input[DEMO_INPUT_0_SIZE];
  memset(input, 0, sizeof input);
  EXPECT_STATUS(demo_init(&ctx, NULL, 0), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
  memcpy(&copy, &ctx, sizeof copy);
  EXPECT_STATUS(demo_run(&copy), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_set_input(&copy, 0, input, sizeof input), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_init(&copy, NULL, 0), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_OK);
}

static void check_status_strings(void) {
  int s;
  for (s = MICROAOT_STATUS_OK; s <= MICROAOT_STATUS_MISSING_KERNEL; ++s) {
    const char *text = demo_status_string((microaot_status)s);
    if (text == NULL || text[0] == '\0' || strcmp(text, "unknown status") == 0) {
      fprintf(stderr, "status %d has no text\n", s);
      ++failures;
    }
  }
  if (strcmp(demo_status_string((microaot_status)99), "unknown status") != 0) {
    fprintf(stderr, "an unknown status has a text of its own\n");
    ++failures;
  }
}

int main(void) {
  check_before_init();
  check_init_arena();
  check_calls_after_init();
  check_run_twice();
  check_two_instances();
  check_run_steps();
  check_shared_arena();
  check_copy_is_refused();
  check_status_strings();
#ifdef MICROAOT_PROFILE
  check_reentry_is_refused();
#endif
  if (failures != 0) fprintf(stderr, "%d API check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
