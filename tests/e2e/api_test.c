/* Exercises the generated API of the demo model (module name "demo") for misuse: every wrong call must
 * return its status code and leave the context usable. Built by cli_test.cpp with -Werror, once plain and
 * once with -DMICROAOT_PROFILE (calls from inside run()). Exit 0 = pass. */
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
  EXPECT_STATUS(demo_destroy(NULL), MICROAOT_STATUS_NULL_POINTER);
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

/* run twice in a row is allowed; with the inputs written again it gives the same outputs. */
static void check_run_twice(void) {
  demo_context ctx;
  unsigned char input[DEMO_INPUT_0_SIZE];
  unsigned char first[DEMO_OUTPUT_0_SIZE];
  unsigned char second[DEMO_OUTPUT_0_SIZE];
  size_t i;
  for (i = 0; i < sizeof input; ++i) input[i] = (unsigned char)(i * 13u + 5u);
  EXPECT_STATUS(demo_init(&ctx, NULL, 0), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_get_output(&ctx, 0, first, sizeof first), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_OK);
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
  if (hook_calls == 0) {
    fprintf(stderr, "the profiling hook was never called\n");
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

int main(void) {
  check_before_init();
  check_init_arena();
  check_calls_after_init();
  check_run_twice();
  check_two_instances();
#ifdef MICROAOT_PROFILE
  check_reentry_is_refused();
#endif
  if (failures != 0) fprintf(stderr, "%d API check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
