/* --io-in-arena off: inputs and outputs live in buffers bound to the context. Checks the bind calls'
 * misuse answers, then runs on caller buffers (zero copy) and on the default static buffers: both runs
 * must agree; then what two contexts sharing the default buffers or the arena get. Exit 0 = pass; any
 * other value names the failed check. */
#include <stdint.h>
#include <string.h>

#include "model.h"

#define CHECK(cond, code) \
  do {                    \
    if (!(cond)) return (code); \
  } while (0)

/* Two contexts of the model share its default I/O buffers (and here the static arena): the one that wrote
 * last owns them, the other gets ARENA_CLOBBERED, never the other's result. */
static int check_shared_default_buffers(const uint8_t *in) {
  model_context a, b;
  static unsigned char out_a[MODEL_OUTPUT_0_SIZE], out_b[MODEL_OUTPUT_0_SIZE];
  CHECK(model_init(&a, NULL, 0) == MICROAOT_STATUS_OK, 30);
  CHECK(model_init(&b, NULL, 0) == MICROAOT_STATUS_OK, 31);
  CHECK(model_run(&a) == MICROAOT_STATUS_INPUT_NOT_SET, 32);
  CHECK(model_set_input(&a, 0, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_OK, 33);
  CHECK(model_set_input(&b, 0, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_OK, 34);
  CHECK(model_run(&b) == MICROAOT_STATUS_OK, 35);
  CHECK(model_run(&a) == MICROAOT_STATUS_ARENA_CLOBBERED, 36);
  CHECK(model_get_output(&b, 0, out_b, sizeof out_b) == MICROAOT_STATUS_OK, 37);
  CHECK(model_set_input(&a, 0, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_OK, 38);
  CHECK(model_get_output(&b, 0, out_b, sizeof out_b) == MICROAOT_STATUS_ARENA_CLOBBERED, 39);
  CHECK(model_run(&a) == MICROAOT_STATUS_OK, 40);
  CHECK(model_get_output(&a, 0, out_a, sizeof out_a) == MICROAOT_STATUS_OK, 41);
  return 0;
}

int main(void) {
  static uint32_t in_words[(MODEL_INPUT_0_SIZE + 3u) / 4u + 1u], out_words[(MODEL_OUTPUT_0_SIZE + 3u) / 4u];
  static unsigned char copied[MODEL_OUTPUT_0_SIZE];
  uint8_t *in = (uint8_t *)in_words;
  model_context ctx;
  const void *out;
  size_t i, size;
  memset(&ctx, 0, sizeof ctx);
  CHECK(model_bind_input(&ctx, 0, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_BAD_STATE, 1);
  CHECK(model_init(&ctx, NULL, 0) == MICROAOT_STATUS_OK, 2);
  CHECK(model_bind_input(NULL, 0, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_NULL_POINTER, 3);
  CHECK(model_bind_input(&ctx, 0, NULL, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_NULL_POINTER, 4);
  CHECK(model_bind_input(&ctx, MODEL_NUM_INPUTS, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_BAD_INDEX, 5);
  CHECK(model_bind_input(&ctx, 0, in, MODEL_INPUT_0_SIZE - 1u) == MICROAOT_STATUS_BAD_SIZE, 6);
  if (MODEL_IO_ALIGN > 1u) CHECK(model_bind_input(&ctx, 0, in + 1, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_ARENA_MISALIGNED, 7);
  CHECK(model_bind_output(&ctx, MODEL_NUM_OUTPUTS, out_words, MODEL_OUTPUT_0_SIZE) == MICROAOT_STATUS_BAD_INDEX, 8);

  /* Default static buffers: copy in, run, copy out. */
  for (i = 0; i < MODEL_INPUT_0_SIZE; ++i) in[i] = (uint8_t)(i * 13u + 7u);
  CHECK(model_set_input(&ctx, 0, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_OK, 9);
  CHECK(model_run(&ctx) == MICROAOT_STATUS_OK, 10);
  CHECK(model_get_output(&ctx, 0, copied, sizeof copied) == MICROAOT_STATUS_OK, 11);

  /* Caller buffers: the run reads `in` and writes `out_words` directly. */
  CHECK(model_bind_input(&ctx, 0, in, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_OK, 12);
  CHECK(model_bind_output(&ctx, 0, out_words, MODEL_OUTPUT_0_SIZE) == MICROAOT_STATUS_OK, 13);
  CHECK(model_run(&ctx) == MICROAOT_STATUS_OK, 14);
  CHECK(model_output_ptr(&ctx, 0, &out, &size) == MICROAOT_STATUS_OK, 15);
  CHECK(out == (const void *)out_words && size == MODEL_OUTPUT_0_SIZE, 16);
  CHECK(memcmp(out_words, copied, sizeof copied) == 0, 17);
  /* Bound inputs are read where they are: a second run needs no new write. */
  CHECK(model_run(&ctx) == MICROAOT_STATUS_OK, 18);
  CHECK(memcmp(out_words, copied, sizeof copied) == 0, 19);
  /* A buffer the run writes must not overlap another bound buffer or the arena. */
  CHECK(model_bind_output(&ctx, 0, in, MODEL_OUTPUT_0_SIZE) == MICROAOT_STATUS_BUFFER_OVERLAP, 20);
  CHECK(model_bind_input(&ctx, 0, out_words, MODEL_INPUT_0_SIZE) == MICROAOT_STATUS_BUFFER_OVERLAP, 21);
  /* A new output buffer holds no result: the outputs are unreadable until the next run. */
  CHECK(model_bind_output(&ctx, 0, copied, sizeof copied) == MICROAOT_STATUS_OK, 22);
  CHECK(model_output_ptr(&ctx, 0, &out, &size) == MICROAOT_STATUS_BAD_STATE, 23);
  CHECK(model_destroy(&ctx) == MICROAOT_STATUS_OK, 24);
  return check_shared_default_buffers(in);
}
