/* A program built from an extracted Model Library Format archive (mlf_test.cpp): runs the model "model"
 * once on raw input files and writes raw outputs, through the public API only.
 * Usage: mlf_main OUT_DIR INPUT0 [INPUT1 ...] */
#include <stdio.h>

#include "model.h"

static model_context ctx;

static int read_input(size_t index, const char *path) {
  void *data;
  size_t size;
  FILE *f = fopen(path, "rb");
  int ok = f != NULL && model_input_ptr(&ctx, index, &data, &size) == MICROAOT_STATUS_OK &&
           fread(data, 1, size, f) == size && fgetc(f) == EOF;
  if (f != NULL) fclose(f);
  return ok;
}

static int write_output(size_t index, const char *dir) {
  const void *data;
  size_t size;
  char path[4096];
  FILE *f;
  int ok;
  if (model_output_ptr(&ctx, index, &data, &size) != MICROAOT_STATUS_OK) return 0;
  snprintf(path, sizeof path, "%s/output%u.bin", dir, (unsigned)index);
  f = fopen(path, "wb");
  ok = f != NULL && fwrite(data, 1, size, f) == size;
  if (f != NULL) ok = fclose(f) == 0 && ok;
  return ok;
}

int main(int argc, char **argv) {
  size_t i;
  if (argc != 2 + (int)MODEL_NUM_INPUTS || model_init(&ctx, NULL, 0) != MICROAOT_STATUS_OK) return 2;
  for (i = 0; i < MODEL_NUM_INPUTS; ++i) {
    if (!read_input(i, argv[2 + i])) return 3;
  }
  if (model_run(&ctx) != MICROAOT_STATUS_OK) return 4;
  for (i = 0; i < MODEL_NUM_OUTPUTS; ++i) {
    if (!write_output(i, argv[1])) return 5;
  }
  return 0;
}
