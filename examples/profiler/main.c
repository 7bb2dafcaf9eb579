/* The profiler on the host: runs a model compiled by `microaot compile` with MICROAOT_PROFILE a number of
 * times on one input, prints its output, then the table of time per operator (op_profiler.c).
 * Usage: profile INPUT.bin [RUNS] */
#include <stdio.h>
#include <stdlib.h>

#include "model.h"
#include "op_profiler.h"

#if MODEL_NUM_INPUTS != 1 || MODEL_NUM_OUTPUTS != 1
#error "this example feeds one input and prints one output"
#endif

static unsigned char input[MODEL_INPUT_0_SIZE], output[MODEL_OUTPUT_0_SIZE];

/* The log hook (platform.h): the profiler's table comes through it. */
void microaot_platform_log(const char *message) { puts(message); }

static int read_input(const char *path) {
  FILE *f = fopen(path, "rb");
  const int ok = f != NULL && fread(input, 1, sizeof input, f) == sizeof input && fgetc(f) == EOF;
  if (f != NULL) fclose(f);
  if (!ok) fprintf(stderr, "profile: %s is not %u raw bytes (the model's input)\n", path, MODEL_INPUT_0_SIZE);
  return ok;
}

static int check(const char *call, microaot_status status) {
  if (status != MICROAOT_STATUS_OK) fprintf(stderr, "profile: %s: %s\n", call, model_status_string(status));
  return status == MICROAOT_STATUS_OK;
}

int main(int argc, char **argv) {
  static model_context ctx;
  const long runs = argc > 2 ? strtol(argv[2], NULL, 10) : 10;
  long run;
  size_t i;
  if (argc < 2 || argc > 3 || runs < 1) {
    fprintf(stderr, "usage: profile INPUT.bin [RUNS >= 1]\n");
    return 2;
  }
  if (!read_input(argv[1]) || !check("init", model_init(&ctx, NULL, 0))) return 1;
  for (run = 0; run < runs; ++run) {
    if (!check("set_input", model_set_input(&ctx, 0, input, sizeof input)) || !check("run", model_run(&ctx))) return 1;
  }
  if (!check("get_output", model_get_output(&ctx, 0, output, sizeof output))) return 1;
  printf("output 0:");
  for (i = 0; i < sizeof output; ++i) printf(" %02x", output[i]);
  printf("\n");
  op_profiler_report("ns");
  return 0;
}
