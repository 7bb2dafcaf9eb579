/* A model compiled by `microaot compile` on a bare-metal Cortex-M4: set the input, run, print the output
 * and every call's status on the console (semihosting.c; a UART on a board). */
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "semihosting.h"

#ifdef WITH_PROFILER
#include "op_profiler.h"
#endif

/* The input built into the image from INPUT_FILE (CMakeLists.txt); your sensor's data in a real firmware. */
extern const uint8_t input_data[];
extern const size_t input_data_size;

static model_context ctx; /* static: a context is small, but keep the stack for the kernels */
static uint8_t output[MODEL_OUTPUT_0_SIZE];

/* microaot_platform_log (platform.h) prints a line; the profiler's table comes through it. */
void microaot_platform_log(const char *message) {
  console_write(message);
  console_write("\n");
}

static void print_uint(uint32_t value) {
  char text[11];
  char *p = text + sizeof text - 1;
  *p = '\0';
  do {
    *--p = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0u);
  console_write(p);
}

static void print_hex_bytes(const uint8_t *data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  char text[4] = {' ', '0', '0', '\0'};
  size_t i;
  for (i = 0; i < size; ++i) {
    text[1] = digits[data[i] >> 4];
    text[2] = digits[data[i] & 0xFu];
    console_write(text);
  }
  console_write("\n");
}

/* Prints "call: status" and says whether it was OK. */
static int ok(const char *call, microaot_status status) {
  console_write(call);
  console_write(": ");
  console_write(model_status_string(status));
  console_write("\n");
  return status == MICROAOT_STATUS_OK;
}

/* For an int8 classifier: the class with the highest score (its probability is
 * (score - MODEL_OUTPUT_0_ZERO_POINT) * MODEL_OUTPUT_0_SCALE after a softmax). */
static void print_top_class(void) {
#if defined(MODEL_OUTPUT_0_SCALE) && MODEL_OUTPUT_0_SIZE == MODEL_OUTPUT_0_ELEMENTS && MODEL_OUTPUT_0_SIZE > 1
  size_t i, top = 0;
  for (i = 1; i < MODEL_OUTPUT_0_SIZE; ++i) {
    if ((int8_t)output[i] > (int8_t)output[top]) top = i;
  }
  console_write("top class: ");
  print_uint((uint32_t)top);
  console_write("\n");
#endif
}

int main(void) {
  if (!ok("init", model_init(&ctx, NULL, 0))) return 1; /* NULL: the library's static arena */
  if (!ok("set_input", model_set_input(&ctx, 0, input_data, input_data_size))) return 1;
  if (!ok("run", model_run(&ctx))) return 1;
  if (!ok("get_output", model_get_output(&ctx, 0, output, sizeof output))) return 1;
  console_write("output 0:");
  print_hex_bytes(output, sizeof output);
  print_top_class();
#ifdef WITH_PROFILER
  op_profiler_report("cycles");
#endif
  return 0;
}
