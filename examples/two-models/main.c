/* Two models on one shared arena (`microaot compile kws.tflite ad.tflite --module-name kws,ad`): the
 * sequence that works, and what the library answers to an interleaving that would give a wrong result.
 * Every call is printed with its status; the program exits 1 if one differs from the expected.
 * Usage: two_models KWS_INPUT.bin AD_INPUT.bin (raw inputs of the two models) */
#include <stdio.h>

#include "ad.h"
#include "kws.h"
#include "shared_arena.h"

static unsigned char kws_in[KWS_INPUT_0_SIZE], ad_in[AD_INPUT_0_SIZE];
static unsigned char kws_out[KWS_OUTPUT_0_SIZE], ad_out[AD_OUTPUT_0_SIZE];
static int unexpected;

/* Prints "call: status" and counts a status other than `expected`. The status codes and their names are
 * the same for every model (kws_status_string and ad_status_string say what microaot_status_string says). */
static void expect(const char *call, microaot_status status, microaot_status expected) {
  printf("  %-30s %s%s\n", call, microaot_status_string(status), status == expected ? "" : "  <-- UNEXPECTED");
  unexpected += status != expected;
}

static void print_bytes(const char *name, const unsigned char *data, size_t size) {
  size_t i;
  printf("  %s:", name);
  for (i = 0; i < size; ++i) printf(" %02x", data[i]);
  printf("\n");
}

static int read_raw(const char *path, unsigned char *data, size_t size) {
  FILE *f = fopen(path, "rb");
  const int ok = f != NULL && fread(data, 1, size, f) == size && fgetc(f) == EOF;
  if (f != NULL) fclose(f);
  if (!ok) fprintf(stderr, "two_models: %s is not %u raw bytes\n", path, (unsigned)size);
  return ok;
}

/* One model after the other: each writes its input right before its run and reads its output before
 * the other model writes. */
static void take_turns(kws_context *kws, ad_context *ad) {
  printf("taking turns:\n");
  expect("kws_set_input", kws_set_input(kws, 0, kws_in, sizeof kws_in), MICROAOT_STATUS_OK);
  expect("kws_run", kws_run(kws), MICROAOT_STATUS_OK);
  expect("kws_get_output", kws_get_output(kws, 0, kws_out, sizeof kws_out), MICROAOT_STATUS_OK);
  expect("ad_set_input", ad_set_input(ad, 0, ad_in, sizeof ad_in), MICROAOT_STATUS_OK);
  expect("ad_run", ad_run(ad), MICROAOT_STATUS_OK);
  expect("ad_get_output", ad_get_output(ad, 0, ad_out, sizeof ad_out), MICROAOT_STATUS_OK);
  print_bytes("kws output 0", kws_out, sizeof kws_out);
  print_bytes("ad output 0", ad_out, sizeof ad_out);
}

/* Both inputs written first: ad's run overwrites kws's input in the shared arena. Instead of a wrong
 * result with OK, kws gets ARENA_CLOBBERED until it writes its input again; then ad's output is gone. */
static void interleave(kws_context *kws, ad_context *ad) {
  printf("interleaved (wrong):\n");
  expect("kws_set_input", kws_set_input(kws, 0, kws_in, sizeof kws_in), MICROAOT_STATUS_OK);
  expect("ad_set_input", ad_set_input(ad, 0, ad_in, sizeof ad_in), MICROAOT_STATUS_OK);
  expect("ad_run", ad_run(ad), MICROAOT_STATUS_OK);
  expect("kws_run", kws_run(kws), MICROAOT_STATUS_ARENA_CLOBBERED);
  printf("recovering: write kws's input again\n");
  expect("kws_set_input", kws_set_input(kws, 0, kws_in, sizeof kws_in), MICROAOT_STATUS_OK);
  expect("kws_run", kws_run(kws), MICROAOT_STATUS_OK);
  expect("ad_get_output (after kws_run)", ad_get_output(ad, 0, ad_out, sizeof ad_out),
         MICROAOT_STATUS_ARENA_CLOBBERED);
  expect("kws_get_output", kws_get_output(kws, 0, kws_out, sizeof kws_out), MICROAOT_STATUS_OK);
}

int main(int argc, char **argv) {
  static kws_context kws;
  static ad_context ad;
  if (argc != 3 || !read_raw(argv[1], kws_in, sizeof kws_in) || !read_raw(argv[2], ad_in, sizeof ad_in)) {
    fprintf(stderr, "usage: two_models KWS_INPUT.bin AD_INPUT.bin\n");
    return 2;
  }
  printf("one arena of %u bytes for kws (%u) and ad (%u)\n", MICROAOT_SHARED_ARENA_SIZE, KWS_ARENA_SIZE,
         AD_ARENA_SIZE);
  /* NULL: the folder's shared static arena (microaot_shared_arena); your own buffer works the same when
   * it is given to both init calls. */
  expect("kws_init", kws_init(&kws, NULL, 0), MICROAOT_STATUS_OK);
  expect("ad_init", ad_init(&ad, NULL, 0), MICROAOT_STATUS_OK);
  take_turns(&kws, &ad);
  interleave(&kws, &ad);
  return unexpected != 0;
}
