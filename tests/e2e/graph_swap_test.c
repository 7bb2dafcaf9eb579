/* The graph executor's field update: one firmware (module `fw`, graph executor, its kernels linked once) runs
 * its built-in blob, then other models' blobs read at run time, with the outputs of the AOT build of each
 * model; corrupt and mismatched blobs get a status and leave the context IDLE.
 * Usage: graph_swap_test FW_INPUT FW_EXPECTED { BLOB INPUT EXPECTED }... -- MISSING_BLOB MISSING_ID
 * (MISSING_BLOB needs kernel MISSING_ID first among those the firmware does not link)
 * Exit status: 0, or the number of failed checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"

static int failures;

#define CHECK(cond)                                                \
  do {                                                             \
    if (!(cond)) {                                                 \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                  \
    }                                                              \
  } while (0)

/* A whole file in a 16-byte aligned buffer (the blob's alignment) with 16 spare bytes after it. */
typedef struct {
  unsigned char *data;
  size_t size;
} file_bytes;

static file_bytes read_all(const char *path) {
  file_bytes f = {NULL, 0};
  FILE *in = fopen(path, "rb");
  long length;
  if (in == NULL || fseek(in, 0, SEEK_END) != 0 || (length = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) != 0) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(100);
  }
  f.size = (size_t)length;
  f.data = (unsigned char *)calloc((f.size + 32u) / 16u, 16u);
  if (f.data == NULL || fread(f.data, 1, f.size, in) != f.size) exit(101);
  fclose(in);
  return f;
}

/* Runs the context's model on `input` and compares every output byte with `expected` (outputs back to back). */
static void expect_run(fw_context *ctx, const char *input, const char *expected) {
  const file_bytes in = read_all(input), want = read_all(expected);
  void *buffer;
  const void *output;
  size_t size = 0, at = 0, j;
  CHECK(fw_input_ptr(ctx, 0, &buffer, &size) == MICROAOT_STATUS_OK && size == in.size);
  if (size == in.size) memcpy(buffer, in.data, size);
  CHECK(fw_run(ctx) == MICROAOT_STATUS_OK);
  for (j = 0; fw_output_ptr(ctx, j, &output, &size) == MICROAOT_STATUS_OK; ++j) {
    CHECK(at + size <= want.size && memcmp(output, want.data + at, size) == 0);
    at += size;
  }
  CHECK(j > 0 && at == want.size);
  free(in.data);
  free(want.data);
}

static microaot_status init_with(fw_context *ctx, const file_bytes *blob, size_t size, void *arena, size_t arena_size) {
  return fw_init_blob(ctx, blob->data, size, arena, arena_size);
}

/* A copy of `blob` with byte `at` changed by `delta`. */
static file_bytes changed(const file_bytes *blob, size_t at, unsigned char delta) {
  file_bytes copy = {(unsigned char *)calloc((blob->size + 32u) / 16u, 16u), blob->size};
  if (copy.data == NULL) exit(102);
  memcpy(copy.data, blob->data, blob->size);
  copy.data[at] = (unsigned char)(copy.data[at] + delta);
  return copy;
}

/* Corrupt or mismatched copies of `blob` are refused, and the context is IDLE after. */
static void expect_refusals(fw_context *ctx, const file_bytes *blob, unsigned char *arena, size_t arena_size) {
  const size_t probes[] = {4u * 8u, blob->size / 2u, blob->size - 1u, 4u * 12u, 4u * 16u};
  size_t i;
  file_bytes copy;
  for (i = 0; i < sizeof probes / sizeof probes[0]; ++i) { /* a changed byte: the checksum */
    copy = changed(blob, probes[i], 1u);
    CHECK(init_with(ctx, &copy, copy.size, arena, arena_size) == MICROAOT_STATUS_BAD_MODEL);
    CHECK(fw_run(ctx) == MICROAOT_STATUS_BAD_STATE);
    free(copy.data);
  }
  copy = changed(blob, 0u, 1u); /* magic */
  CHECK(init_with(ctx, &copy, copy.size, arena, arena_size) == MICROAOT_STATUS_BAD_MODEL);
  free(copy.data);
  copy = changed(blob, 4u, 1u); /* blob version */
  CHECK(init_with(ctx, &copy, copy.size, arena, arena_size) == MICROAOT_STATUS_UNSUPPORTED_MODEL);
  free(copy.data);
  CHECK(init_with(ctx, blob, blob->size - 4u, arena, arena_size) == MICROAOT_STATUS_BAD_MODEL); /* truncated */
  CHECK(init_with(ctx, blob, 40u, arena, arena_size) == MICROAOT_STATUS_BAD_MODEL);
  CHECK(fw_init_blob(ctx, blob->data + 4, blob->size, arena, arena_size) == MICROAOT_STATUS_ARENA_MISALIGNED);
  CHECK(init_with(ctx, blob, blob->size, arena, 16u) == MICROAOT_STATUS_ARENA_TOO_SMALL);
  CHECK(fw_init_blob(ctx, NULL, blob->size, arena, arena_size) == MICROAOT_STATUS_NULL_POINTER);
  CHECK(fw_run(ctx) == MICROAOT_STATUS_BAD_STATE);
}

int main(int argc, char **argv) {
  static fw_context ctx, other;
  static unsigned char arena[1u << 20] __attribute__((aligned(16)));
  static unsigned char other_arena[1u << 20] __attribute__((aligned(16)));
  int a = 3;
  file_bytes first = {NULL, 0};
  if (argc < 6) return 100;
  CHECK(fw_init(&ctx, NULL, 0) == MICROAOT_STATUS_OK); /* the built-in blob on the static arena */
  expect_run(&ctx, argv[1], argv[2]);
  for (; a + 2 < argc && strcmp(argv[a], "--") != 0; a += 3) { /* each other model's blob, then the built-in again */
    file_bytes blob = read_all(argv[a]);
    CHECK(init_with(&ctx, &blob, blob.size, arena, sizeof arena) == MICROAOT_STATUS_OK);
    expect_run(&ctx, argv[a + 1], argv[a + 2]);
    CHECK(fw_init(&other, other_arena, sizeof other_arena) == MICROAOT_STATUS_OK); /* two models side by side */
    expect_run(&other, argv[1], argv[2]);
    expect_run(&ctx, argv[a + 1], argv[a + 2]);
    if (first.data == NULL) {
      first = blob;
    } else {
      free(blob.data);
    }
  }
  if (a + 2 < argc && first.data != NULL) {
    file_bytes missing = read_all(argv[a + 1]); /* needs a kernel this firmware does not link */
    CHECK(init_with(&ctx, &missing, missing.size, arena, sizeof arena) == MICROAOT_STATUS_MISSING_KERNEL);
    CHECK(fw_missing_kernel(&ctx) == (uint32_t)strtoul(argv[a + 2], NULL, 10));
    if (fw_missing_kernel(&ctx) != (uint32_t)strtoul(argv[a + 2], NULL, 10)) {
      fprintf(stderr, "missing kernel %lu, expected %s\n", (unsigned long)fw_missing_kernel(&ctx), argv[a + 2]);
    }
    CHECK(strcmp(fw_status_string(MICROAOT_STATUS_MISSING_KERNEL),
                 "model blob needs a kernel this firmware does not link") == 0);
    CHECK(fw_run(&ctx) == MICROAOT_STATUS_BAD_STATE);
    expect_refusals(&ctx, &first, arena, sizeof arena);
    CHECK(init_with(&ctx, &first, first.size, arena, sizeof arena) == MICROAOT_STATUS_OK); /* still loads */
    CHECK(fw_missing_kernel(&ctx) == 0xFFFFFFFFu);
    free(missing.data);
  } else {
    ++failures; /* the usage asks for at least one blob and the unsupported one */
  }
  free(first.data);
  return failures;
}
