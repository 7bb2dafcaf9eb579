/* Built against a library configured with the static arena off and profiling on (CMake options
 * MODEL_STATIC_ARENA=OFF MODEL_PROFILE=ON, or the .mk's MODEL_STATIC_ARENA=0 MODEL_PROFILE=1): init
 * without an arena is refused, one of the caller's works, and the hooks see every operator. Exit 0 = pass. */
#include <stddef.h>
#include <string.h>

#include "model.h"
#include "platform.h"

#ifndef MODEL_NO_STATIC_ARENA
#error "the static-arena option did not reach this program"
#endif
#ifndef MICROAOT_PROFILE
#error "the profiling option did not reach this program"
#endif

static int begins = 0, ends = 0;

void microaot_platform_op_begin(int step, const char *op_name) {
  if (step == begins && op_name != NULL && op_name[0] != '\0') ++begins;
}

void microaot_platform_op_end(int step, const char *op_name) {
  if (step == ends && op_name != NULL && op_name[0] != '\0') ++ends;
}

int main(void) {
  static uint64_t arena_words[(MODEL_ARENA_SIZE + MODEL_ARENA_ALIGN) / 8u + 1u];
  static unsigned char input[MODEL_INPUT_0_SIZE];
  unsigned char *arena = (unsigned char *)arena_words;
  model_context ctx;
  arena += (MODEL_ARENA_ALIGN - (size_t)arena % MODEL_ARENA_ALIGN) % MODEL_ARENA_ALIGN;
  if (model_init(&ctx, NULL, 0) != MICROAOT_STATUS_NULL_POINTER) return 1;
  if (model_init(&ctx, arena, MODEL_ARENA_SIZE) != MICROAOT_STATUS_OK) return 2;
  memset(input, 0, sizeof input);
  if (model_set_input(&ctx, 0, input, sizeof input) != MICROAOT_STATUS_OK) return 3;
  if (model_run(&ctx) != MICROAOT_STATUS_OK) return 4;
  return begins == (int)MODEL_NUM_OPS && ends == (int)MODEL_NUM_OPS ? 0 : 5;
}
