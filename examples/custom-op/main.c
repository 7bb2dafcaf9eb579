/* Runs the custom-op example's model once on an input file and prints the input and the output in hex.
 * Usage: custom_op INPUT.bin (MODEL_INPUT_0_SIZE raw bytes). */
#include <stdio.h>

#include "model.h"

#if MODEL_NUM_INPUTS != 1 || MODEL_NUM_OUTPUTS != 1
#error "this example feeds one input and prints one output"
#endif

static void print_hex(const char *label, const unsigned char *bytes, unsigned size) {
  unsigned i;
  printf("%s", label);
  for (i = 0; i < size; ++i) printf(" %02x", bytes[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  static model_context ctx;
  static unsigned char input[MODEL_INPUT_0_SIZE], output[MODEL_OUTPUT_0_SIZE];
  FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
  const int ok = f != NULL && fread(input, 1, sizeof input, f) == sizeof input && fgetc(f) == EOF;
  microaot_status status;
  if (f != NULL) fclose(f);
  if (!ok) {
    fprintf(stderr, "usage: custom_op INPUT.bin (%u raw bytes)\n", (unsigned)sizeof input);
    return 2;
  }
  status = model_init(&ctx, NULL, 0);
  if (status == MICROAOT_STATUS_OK) status = model_set_input(&ctx, 0, input, sizeof input);
  if (status == MICROAOT_STATUS_OK) status = model_run(&ctx); /* ClipScale's status ends the run if not OK */
  if (status == MICROAOT_STATUS_OK) status = model_get_output(&ctx, 0, output, sizeof output);
  if (status != MICROAOT_STATUS_OK) {
    printf("failed: %s\n", model_status_string(status));
    return 1;
  }
  print_hex("input:", input, sizeof input);
  print_hex("output:", output, sizeof output);
  return 0;
}
