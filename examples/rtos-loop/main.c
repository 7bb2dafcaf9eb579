/* An RTOS-style inference task: each frame is run in slices of at most OPS_PER_SLICE operators
 * (model_run_steps), and between slices the task kicks the watchdog and yields, so no slice keeps the
 * CPU longer than its operators take. Each frame's output is checked against model_run's.
 * Usage: rtos_loop FRAME.bin... (raw inputs of the model compiled as 'model'; one frame per file) */
#include <stdio.h>
#include <string.h>

#include "model.h"

#if MODEL_NUM_INPUTS != 1 || MODEL_NUM_OUTPUTS != 1
#error "this example feeds one input and prints one output"
#endif

/* Operators per slice: the longest slice is the sum of that many of the slowest operators (the profiler
 * example measures them); keep it below the watchdog's period. */
#ifndef OPS_PER_SLICE
#define OPS_PER_SLICE 2u
#endif

static unsigned watchdog_kicks, yields;

/* Stand-ins: on a board, reload the watchdog (STM32: IWDG->KR = 0xAAAA) and let other tasks run
 * (FreeRTOS: taskYIELD(), Zephyr: k_yield(), CMSIS-RTOS2: osThreadYield()). */
static void watchdog_kick(void) { ++watchdog_kicks; }
static void task_yield(void) { ++yields; }

/* One inference, sliced; returns the status that ended it (OK when the outputs are readable). */
static microaot_status infer_in_slices(model_context *ctx, const unsigned char *frame, unsigned *slices) {
  microaot_status status = model_set_input(ctx, 0, frame, MODEL_INPUT_0_SIZE);
  *slices = 0;
  while (status == MICROAOT_STATUS_OK || status == MICROAOT_STATUS_IN_PROGRESS) {
    status = model_run_steps(ctx, OPS_PER_SLICE);
    ++*slices;
    if (status != MICROAOT_STATUS_IN_PROGRESS) break;
    watchdog_kick();
    task_yield();
  }
  return status;
}

/* The same frame in one model_run, for the check. */
static microaot_status infer_whole(model_context *ctx, const unsigned char *frame, unsigned char *output) {
  microaot_status status = model_set_input(ctx, 0, frame, MODEL_INPUT_0_SIZE);
  if (status == MICROAOT_STATUS_OK) status = model_run(ctx);
  if (status == MICROAOT_STATUS_OK) status = model_get_output(ctx, 0, output, MODEL_OUTPUT_0_SIZE);
  return status;
}

static int read_frame(const char *path, unsigned char *frame) {
  FILE *f = fopen(path, "rb");
  const int ok = f != NULL && fread(frame, 1, MODEL_INPUT_0_SIZE, f) == MODEL_INPUT_0_SIZE && fgetc(f) == EOF;
  if (f != NULL) fclose(f);
  if (!ok) fprintf(stderr, "rtos_loop: %s is not %u raw bytes (the model's input)\n", path, MODEL_INPUT_0_SIZE);
  return ok;
}

static int fail(int frame, const char *what, microaot_status status) {
  printf("frame %d: %s: %s\n", frame, what, model_status_string(status));
  return 1;
}

int main(int argc, char **argv) {
  static model_context ctx;
  static unsigned char frame[MODEL_INPUT_0_SIZE], sliced[MODEL_OUTPUT_0_SIZE], whole[MODEL_OUTPUT_0_SIZE];
  microaot_status status = model_init(&ctx, NULL, 0);
  int k;
  if (status != MICROAOT_STATUS_OK) return fail(-1, "init", status);
  for (k = 1; k < argc; ++k) { /* the task's loop: wait for a frame, infer, publish */
    unsigned slices, kicks = watchdog_kicks, i;
    if (!read_frame(argv[k], frame)) return 1;
    status = infer_in_slices(&ctx, frame, &slices);
    if (status == MICROAOT_STATUS_OK) status = model_get_output(&ctx, 0, sliced, sizeof sliced);
    if (status != MICROAOT_STATUS_OK) return fail(k - 1, "run_steps", status);
    printf("frame %d: %u slices of at most %u operators (%u in all), %u watchdog kicks\n", k - 1, slices,
           OPS_PER_SLICE, MODEL_NUM_OPS, watchdog_kicks - kicks);
    printf("frame %d: output 0:", k - 1);
    for (i = 0; i < sizeof sliced; ++i) printf(" %02x", sliced[i]);
    status = infer_whole(&ctx, frame, whole);
    if (status != MICROAOT_STATUS_OK) return fail(k - 1, "run", status);
    printf("\nframe %d: equal to model_run: %s\n", k - 1, memcmp(sliced, whole, sizeof whole) == 0 ? "yes" : "NO");
    if (memcmp(sliced, whole, sizeof whole) != 0) return 1;
  }
  printf("%u yields in all\n", yields);
  return 0;
}
