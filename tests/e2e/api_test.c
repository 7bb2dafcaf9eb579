/* Exercises the generated API of the demo model (module name "demo") for misuse: every wrong call must
 * return its status code and leave the context usable. Built by cli_test.cpp with -Werror. Exit 0 = pass. */
#include <stdio.h>
#include <string.h>

#include "demo.h"

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
  memset(&ctx, 0, sizeof ctx); /* IDLE */
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_run(NULL), MICROAOT_STATUS_NULL_POINTER);
  EXPECT_STATUS(demo_init(NULL, NULL, 0), MICROAOT_STATUS_NULL_POINTER);
}

static void check_init_arena(void) {
  demo_context ctx;
  EXPECT_STATUS(demo_init(&ctx, aligned_arena(0), DEMO_ARENA_SIZE - 1), MICROAOT_STATUS_ARENA_TOO_SMALL);
  if (DEMO_ARENA_ALIGN > 1) {
    EXPECT_STATUS(demo_init(&ctx, aligned_arena(1), DEMO_ARENA_SIZE), MICROAOT_STATUS_ARENA_MISALIGNED);
  }
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
  EXPECT_STATUS(demo_set_input(&ctx, 0, input, sizeof input - 1), MICROAOT_STATUS_BAD_SIZE);
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
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_output_ptr(&ctx, 0, &out_ptr, &size), MICROAOT_STATUS_OK);
  if (out_ptr == NULL || memcmp(out_ptr, output, sizeof output) != 0) {
    fprintf(stderr, "output_ptr does not show the output get_output copied\n");
    ++failures;
  }
  EXPECT_STATUS(demo_destroy(&ctx), MICROAOT_STATUS_OK);
  EXPECT_STATUS(demo_run(&ctx), MICROAOT_STATUS_BAD_STATE);
  EXPECT_STATUS(demo_get_output(&ctx, 0, output, sizeof output), MICROAOT_STATUS_BAD_STATE);
}

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
  check_two_instances();
  if (failures != 0) fprintf(stderr, "%d API check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
