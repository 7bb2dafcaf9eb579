/* run_steps on a real model (module name "model"): for several slice sizes, max_ops = 1 included, the
 * outputs must be bit-identical to run()'s, the number of calls must be ceil(ops / max_ops), and calls
 * other than run_steps between slices must be refused. Usage: run_steps_test INPUT... (raw, one per model
 * input). Exit 0 = pass; else the failed check. */
#include <stdio.h>
#include <string.h>

#include "model.h"

static unsigned char inputs[MODEL_NUM_INPUTS][1u << 20];
static size_t input_sizes[MODEL_NUM_INPUTS];

static int write_inputs(model_context *ctx) {
  size_t i;
  for (i = 0; i < MODEL_NUM_INPUTS; ++i) {
    if (model_set_input(ctx, i, inputs[i], input_sizes[i]) != MICROAOT_STATUS_OK) return 1;
  }
  return 0;
}

/* All outputs back to back into `out` (at most `capacity` bytes); returns the byte count, 0 on failure. */
static size_t read_outputs(model_context *ctx, unsigned char *out, size_t capacity) {
  size_t i, used = 0;
  for (i = 0; i < MODEL_NUM_OUTPUTS; ++i) {
    const void *data;
    size_t size;
    if (model_output_ptr(ctx, i, &data, &size) != MICROAOT_STATUS_OK || used + size > capacity) return 0;
    memcpy(out + used, data, size);
    used += size;
  }
  return used;
}

/* One run in slices of max_ops: 0 when it took the expected calls and refused everything else between them. */
static int run_in_slices(model_context *ctx, size_t max_ops) {
  size_t calls = 1;
  microaot_status status;
  const void *data;
  while ((status = model_run_steps(ctx, max_ops)) == MICROAOT_STATUS_IN_PROGRESS) {
    ++calls;
    if (model_run(ctx) != MICROAOT_STATUS_BAD_STATE) return 1;
    if (model_set_input(ctx, 0, inputs[0], input_sizes[0]) != MICROAOT_STATUS_BAD_STATE) return 1;
    if (model_output_ptr(ctx, 0, &data, NULL) != MICROAOT_STATUS_BAD_STATE) return 1;
  }
  return status != MICROAOT_STATUS_OK || calls != (MODEL_NUM_OPS + max_ops - 1u) / max_ops + (MODEL_NUM_OPS == 0u);
}

int main(int argc, char **argv) {
  static unsigned char whole[1u << 20], sliced[1u << 20];
  const size_t slices[] = {1u, 2u, 3u, MODEL_NUM_OPS > 1u ? MODEL_NUM_OPS - 1u : 1u, MODEL_NUM_OPS + 1u};
  model_context ctx;
  size_t i, bytes;
  if (argc != 1 + (int)MODEL_NUM_INPUTS) return 2;
  for (i = 0; i < MODEL_NUM_INPUTS; ++i) {
    FILE *f = fopen(argv[1 + i], "rb");
    if (f == NULL) return 3;
    input_sizes[i] = fread(inputs[i], 1, sizeof inputs[i], f);
    fclose(f);
  }
  if (model_init(&ctx, NULL, 0) != MICROAOT_STATUS_OK || write_inputs(&ctx) || model_run(&ctx)) return 4;
  bytes = read_outputs(&ctx, whole, sizeof whole);
  if (bytes == 0u) return 5;
  for (i = 0; i < sizeof slices / sizeof slices[0]; ++i) {
    if (write_inputs(&ctx) != 0) return 6;
    if (run_in_slices(&ctx, slices[i]) != 0) return 10 + (int)i;
    if (read_outputs(&ctx, sliced, sizeof sliced) != bytes || memcmp(whole, sliced, bytes) != 0) return 20 + (int)i;
  }
  return model_destroy(&ctx) == MICROAOT_STATUS_OK ? 0 : 7;
}
