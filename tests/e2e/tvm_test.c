/* The microTVM-style entry (--interface-api c) must give the same output as the native API. Exit 0 = pass. */
#include <stdio.h>
#include <string.h>

#include "demo.h"

int main(void) {
  static unsigned char input[DEMO_INPUT_0_SIZE];
  static unsigned char via_tvm[DEMO_OUTPUT_0_SIZE];
  static unsigned char via_api[DEMO_OUTPUT_0_SIZE];
  struct tvmgen_demo_inputs inputs;
  struct tvmgen_demo_outputs outputs;
  demo_context ctx;
  size_t i;
  for (i = 0; i < sizeof input; ++i) input[i] = (unsigned char)(i * 13u + 5u);
  memset(&inputs, 0, sizeof inputs);
  memset(&outputs, 0, sizeof outputs);
  *(void **)&inputs = input; /* the first (only) input field */
  *(void **)&outputs = via_tvm;
  if (tvmgen_demo_run(&inputs, &outputs) != 0) return 1;
  if (demo_init(&ctx, NULL, 0) != MICROAOT_STATUS_OK || demo_set_input(&ctx, 0, input, sizeof input) != MICROAOT_STATUS_OK ||
      demo_run(&ctx) != MICROAOT_STATUS_OK || demo_get_output(&ctx, 0, via_api, sizeof via_api) != MICROAOT_STATUS_OK) {
    return 1;
  }
  if (memcmp(via_tvm, via_api, sizeof via_api) != 0) {
    fprintf(stderr, "tvmgen_demo_run and demo_run disagree\n");
    return 1;
  }
  return 0;
}
