/* --io-in-arena off: inputs and outputs live in buffers bound to the context. Checks the bind calls'
 * misuse answers, then runs on caller buffers (zero copy) and on the default static buffers: both runs
 * must agree. Exit 0 = pass; any other value names the failed check. */
#include <stdint.h>
#include <string.h>

#include "model.h"

#define CHECK(cond, code) \
  do {                    \
    if (!(cond)) return (code); \
  } while (0)

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
  CHECK(model_destroy(&ctx) == MICROAOT_STATUS_OK, 18);
  return 0;
}
