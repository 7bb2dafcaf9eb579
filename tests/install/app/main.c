/* Runs the model `model` once: app INPUT.bin OUTPUT.bin (first input, first output). Exit status: 0, or the
 * step that failed. */
#include <stdio.h>

#include "model.h"

int main(int argc, char **argv) {
  static model_context ctx;
  void *input;
  const void *output;
  size_t size;
  FILE *f;
  if (argc != 3 || model_init(&ctx, NULL, 0) != MICROAOT_STATUS_OK) return 2;
  if (model_input_ptr(&ctx, 0, &input, &size) != MICROAOT_STATUS_OK) return 3;
  f = fopen(argv[1], "rb");
  if (f == NULL || fread(input, 1, size, f) != size) return 4;
  fclose(f);
  if (model_run(&ctx) != MICROAOT_STATUS_OK || model_output_ptr(&ctx, 0, &output, &size) != MICROAOT_STATUS_OK) {
    return 5;
  }
  f = fopen(argv[2], "wb");
  if (f == NULL || fwrite(output, 1, size, f) != size) return 6;
  return fclose(f) == 0 ? 0 : 7;
}
