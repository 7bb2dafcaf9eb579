/* microaot run/bench harness for the emulated Cortex-M boards. QEMU passes `model.elf DIR` as the
 * semihosting command line; the harness reads DIR/inputs.bin (input sets back to back, each the model's
 * inputs in order), runs the model once per set, writes DIR/outputs.bin (the outputs of each set back to
 * back) and DIR/results.txt ("key value" lines: instruction counts and stack use). Built with
 * MICROAOT_PROFILE (bench's second image) it also writes each step's instructions, before its set's line.
 * The model's names come from the compiler's -D flags: HARNESS_MODEL_HEADER ("model.h"),
 * HARNESS_PREFIX (model_) and HARNESS_MACRO (MODEL_). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bench.h"
#include "semihost.h"
#include HARNESS_MODEL_HEADER
#ifdef MICROAOT_PROFILE
#include "microaot/platform.h"
#endif

#define HARNESS_PASTE_(a, b) a##b
#define HARNESS_PASTE(a, b) HARNESS_PASTE_(a, b)
#define FN(name) HARNESS_PASTE(HARNESS_PREFIX, name)
#define MACRO(name) HARNESS_PASTE(HARNESS_MACRO, name)

/* The clock check: a loop of 2 * 10000 instructions after one setting its count (the driver wants 20001).
 * The sweep: SLED_NOPS + 1 calls running 0 to SLED_NOPS nops, each of which must measure exactly its nops
 * more than the first: every place in the timer's beat (at most 125 instructions) read to the instruction. */
#define SLED_NOPS 128u
#define NO_SWEEP "--no-sweep "

static FN(context) context;
static int32_t results = -1;

static void fail(const char *message) {
  semihost_print("harness: ");
  semihost_print(message);
  semihost_print("\n");
  semihost_exit(0);
}

static void put_line(const char *key, int64_t value) {
  char text[80];
  char digits[24];
  size_t length = strlen(key), n = 0;
  uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  memcpy(text, key, length);
  text[length++] = ' ';
  if (value < 0) text[length++] = '-';
  do {
    digits[n++] = (char)('0' + (int)(magnitude % 10u));
    magnitude /= 10u;
  } while (magnitude != 0u);
  while (n > 0u) text[length++] = digits[--n];
  text[length++] = '\n';
  if (semihost_write(results, text, length) != 0) fail("cannot write results.txt");
}

static int32_t open_in(const char *dir, const char *name, int32_t mode) {
  char path[600];
  const size_t dir_length = strlen(dir), name_length = strlen(name);
  int32_t handle;
  if (dir_length + name_length + 2u > sizeof path) fail("build folder path too long");
  memcpy(path, dir, dir_length);
  path[dir_length] = '/';
  memcpy(path + dir_length + 1u, name, name_length + 1u);
  handle = semihost_open(path, mode);
  if (handle < 0) fail("cannot open a file in the build folder");
  return handle;
}

#ifdef MICROAOT_PROFILE
/* The per-operator hooks: each step's instructions from the end of op_begin to the start of op_end (the
 * step function's dispatch and the kernel), net of an empty begin/end pair (step -1, measured first). */
static bench_span op_span;
static int64_t empty_op_pair;

void microaot_platform_op_begin(int step, const char *op_name) {
  (void)step;
  (void)op_name;
  bench_span_begin(&op_span);
}

void microaot_platform_op_end(int step, const char *op_name) {
  const int64_t counted = bench_span_end(&op_span);
  (void)op_name;
  if (step < 0) {
    empty_op_pair = counted;
    return;
  }
  put_line("op_step", step);
  put_line("op_instructions", counted - empty_op_pair);
}

static void measure_empty_op_pair(void) {
  microaot_platform_op_begin(-1, "");
  microaot_platform_op_end(-1, "");
  put_line("op_hook_instructions", empty_op_pair);
}
#else
static void measure_empty_op_pair(void) {}
#endif

/* Each model call is measured against an empty function of the same shape, called the same way, so
 * the difference is the model's own instructions and stack (minus the empty body's two instructions). */
__attribute__((noipa)) static microaot_status empty_init(FN(context) *ctx, void *arena, size_t size) {
  (void)ctx;
  (void)arena;
  (void)size;
  return MICROAOT_STATUS_OK;
}
__attribute__((noipa)) static microaot_status empty_run(FN(context) *ctx) {
  (void)ctx;
  return MICROAOT_STATUS_OK;
}
static int call_init(void *arg) { return (int)FN(init)((FN(context) *)arg, NULL, 0); }
static int call_empty_init(void *arg) { return (int)empty_init((FN(context) *)arg, NULL, 0); }
static int call_run(void *arg) { return (int)FN(run)((FN(context) *)arg); }
static int call_empty_run(void *arg) { return (int)empty_run((FN(context) *)arg); }

static int call_nothing(void *arg) {
  (void)arg;
  return 0;
}
/* The counter is a clobbered register, not an output: at -O0 an output would be stored after the loop, one
 * instruction that call_nothing does not have (bench --cflags -O0 measured 20002). */
static int call_spin(void *arg) {
  __asm__ volatile("  movw ip, #10000\n1: subs ip, ip, #1\n  bne 1b\n" : : : "ip", "cc");
  (void)arg;
  return 0;
}
/* Jumps into a sled of 16-bit nops so that exactly *arg of them run (at most SLED_NOPS). */
static int call_sled(void *arg) {
  const uint32_t nops = *(const uint32_t *)arg;
  uint32_t target;
  __asm__ volatile(
      "  adr %[t], 3f\n"
      "  sub %[t], %[t], %[n], lsl #1\n"
      "  orr %[t], %[t], #1\n"
      "  bx %[t]\n"
      "  .rept %c[max]\n"
      "  nop.n\n"
      "  .endr\n"
      "3:\n"
      : [t] "=&r"(target)
      : [n] "r"(nops), [max] "i"(SLED_NOPS)
      : "cc", "memory");
  return 0;
}

/* How many of the sweep's calls did not measure exactly their nops more than the call of none. */
static int64_t clock_sweep_errors(void) {
  bench_sample first, sample;
  uint32_t nops = 0u;
  int64_t errors = 0;
  bench_measure(call_sled, &nops, &first);
  for (nops = 1u; nops <= SLED_NOPS; ++nops) {
    bench_measure(call_sled, &nops, &sample);
    if (sample.instructions - first.instructions != (int64_t)nops) ++errors;
  }
  return errors;
}

static size_t set_bytes(void) {
  size_t i, total = 0;
  for (i = 0; i < MACRO(NUM_INPUTS); ++i) {
    void *data;
    size_t size;
    if (FN(input_ptr)(&context, i, &data, &size) != MICROAOT_STATUS_OK) fail("input_ptr failed");
    total += size;
  }
  return total;
}

static void run_set(int32_t inputs, int32_t outputs, int64_t set, const bench_sample *baseline) {
  bench_sample sample;
  size_t i;
  for (i = 0; i < MACRO(NUM_INPUTS); ++i) {
    void *data;
    size_t size;
    if (FN(input_ptr)(&context, i, &data, &size) != MICROAOT_STATUS_OK) fail("input_ptr failed");
    if (semihost_read(inputs, data, size) != 0) fail("cannot read inputs.bin");
  }
  bench_measure(call_run, &context, &sample);
  if (sample.status != MICROAOT_STATUS_OK) fail("run failed");
  if (sample.stack_bytes < 0) fail("stack overflow during run");
  for (i = 0; i < MACRO(NUM_OUTPUTS); ++i) {
    const void *data;
    size_t size;
    if (FN(output_ptr)(&context, i, &data, &size) != MICROAOT_STATUS_OK) fail("output_ptr failed");
    if (semihost_write(outputs, data, size) != 0) fail("cannot write outputs.bin");
  }
  put_line("set", set);
  put_line("instructions", sample.instructions - baseline->instructions);
  put_line("stack_bytes", sample.stack_bytes - baseline->stack_bytes);
}

int main(void) {
  static char command_line[600];
  const char *dir;
  int sweep;
  bench_sample nothing, spin, empty_init_sample, init, empty_run_sample;
  int32_t inputs, outputs, length;
  int64_t set, sets;
  size_t bytes;

  bench_clock_start();
  if (semihost_command_line(command_line, sizeof command_line) != 0) fail("no semihosting command line");
  dir = strchr(command_line, ' ');
  if (dir == NULL) fail("usage: model.elf [--no-sweep] BUILD_DIR");
  ++dir;
  /* --no-sweep: QEMU logs every instruction for bench --cycles, which checks the counts against that log; the
   * sweep's timer reads would make the log ten times longer. */
  sweep = strncmp(dir, NO_SWEEP, strlen(NO_SWEEP)) != 0;
  if (!sweep) dir += strlen(NO_SWEEP);
  results = open_in(dir, "results.txt", SEMIHOST_MODE_WRITE_BINARY);

  bench_measure(call_nothing, NULL, &nothing);
  bench_measure(call_spin, NULL, &spin);
  put_line("clock_check", spin.instructions - nothing.instructions);
  put_line(sweep ? "clock_sweep_errors" : "clock_sweep_left_out", sweep ? clock_sweep_errors() : 1);
  bench_measure(call_empty_init, &context, &empty_init_sample);
  bench_measure(call_init, &context, &init);
  if (init.status != MICROAOT_STATUS_OK) fail("init failed");
  put_line("init_instructions", init.instructions - empty_init_sample.instructions);
  put_line("init_stack_bytes", init.stack_bytes - empty_init_sample.stack_bytes);
  bench_measure(call_empty_run, &context, &empty_run_sample);
  measure_empty_op_pair();

  inputs = open_in(dir, "inputs.bin", SEMIHOST_MODE_READ_BINARY);
  outputs = open_in(dir, "outputs.bin", SEMIHOST_MODE_WRITE_BINARY);
  length = semihost_file_length(inputs);
  bytes = set_bytes();
  if (length <= 0 || (size_t)length % bytes != 0u) fail("inputs.bin is not a whole number of input sets");
  sets = (int64_t)((size_t)length / bytes);
  put_line("sets", sets);
  for (set = 0; set < sets; ++set) run_set(inputs, outputs, set, &empty_run_sample);
  if (FN(destroy)(&context) != MICROAOT_STATUS_OK) fail("destroy failed");
  semihost_close(inputs);
  semihost_close(outputs);
  put_line("done", 1);
  semihost_close(results);
  return 0;
}
