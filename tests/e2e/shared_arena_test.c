/* Two different models compiled into one folder with one shared arena (`microaot compile a b -o OUT`).
 * The sequence kws_set_input; ad_set_input; ad_run; kws_run must give kws ARENA_CLOBBERED, never
 * OK; each model's own results stay right, on the shared static arena and on one caller buffer given to
 * both init calls. Usage: shared_arena_test KWS_IN KWS_OUT AD_IN AD_OUT (raw files): writes the outputs
 * for the test to compare with the goldens. Exit 0 = every status as expected; else the failed check. */
#include <stdio.h>
#include <string.h>

#include "ad.h"
#include "kws.h"
#include "shared_arena.h"

static unsigned char kws_in[KWS_INPUT_0_SIZE], ad_in[AD_INPUT_0_SIZE];

static int read_raw(const char *path, void *data, size_t size) {
  FILE *f = fopen(path, "rb");
  int ok = f != NULL && fread(data, 1, size, f) == size;
  if (f != NULL) fclose(f);
  return ok ? 0 : 1;
}

static int write_raw(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  int ok = f != NULL && fwrite(data, 1, size, f) == size;
  if (f != NULL) ok = fclose(f) == 0 && ok;
  return ok ? 0 : 1;
}

/* Both models on `arena` (NULL: the shared static arena). Returns 0, or the number of the failed check. */
static int interleave(void *arena, size_t size, unsigned char *kws_out, unsigned char *ad_out) {
  kws_context k;
  ad_context a;
  if (kws_init(&k, arena, size) || ad_init(&a, arena, size)) return 1;
  if (kws_set_input(&k, 0, kws_in, sizeof kws_in) || ad_set_input(&a, 0, ad_in, sizeof ad_in)) return 2;
  if (ad_run(&a) != MICROAOT_STATUS_OK) return 3;
  if (kws_run(&k) != MICROAOT_STATUS_ARENA_CLOBBERED) return 4;
  if (kws_get_output(&k, 0, kws_out, KWS_OUTPUT_0_SIZE) != MICROAOT_STATUS_BAD_STATE) return 5;
  if (ad_get_output(&a, 0, ad_out, AD_OUTPUT_0_SIZE) != MICROAOT_STATUS_OK) return 6;
  /* kws writes its input again: its run is right, and ad's outputs are gone. */
  if (kws_set_input(&k, 0, kws_in, sizeof kws_in) || kws_run(&k)) return 7;
  if (ad_get_output(&a, 0, ad_out, AD_OUTPUT_0_SIZE) != MICROAOT_STATUS_ARENA_CLOBBERED) return 8;
  if (kws_get_output(&k, 0, kws_out, KWS_OUTPUT_0_SIZE) != MICROAOT_STATUS_OK) return 9;
  /* A stepped kws run with an ad run in between. */
  if (kws_set_input(&k, 0, kws_in, sizeof kws_in)) return 10;
  if (kws_run_steps(&k, 1) != MICROAOT_STATUS_IN_PROGRESS) return 11;
  if (ad_set_input(&a, 0, ad_in, sizeof ad_in) || ad_run(&a)) return 12;
  if (kws_run_steps(&k, KWS_NUM_OPS) != MICROAOT_STATUS_ARENA_CLOBBERED) return 13;
  if (ad_get_output(&a, 0, ad_out, AD_OUTPUT_0_SIZE) != MICROAOT_STATUS_OK) return 14;
  return kws_destroy(&k) || ad_destroy(&a) ? 15 : 0;
}

int main(int argc, char **argv) {
  static unsigned char kws_out[KWS_OUTPUT_0_SIZE], ad_out[AD_OUTPUT_0_SIZE];
  static unsigned char kws_again[KWS_OUTPUT_0_SIZE], ad_again[AD_OUTPUT_0_SIZE];
  static unsigned char buffer[MICROAOT_SHARED_ARENA_SIZE + MICROAOT_SHARED_ARENA_ALIGN];
  unsigned char *aligned = buffer + (MICROAOT_SHARED_ARENA_ALIGN - (size_t)buffer % MICROAOT_SHARED_ARENA_ALIGN) %
                                        MICROAOT_SHARED_ARENA_ALIGN;
  int failed;
  if (argc != 5) return 90;
  if (MICROAOT_SHARED_ARENA_SIZE < KWS_ARENA_SIZE || MICROAOT_SHARED_ARENA_SIZE < AD_ARENA_SIZE) return 91;
  if (read_raw(argv[1], kws_in, sizeof kws_in) || read_raw(argv[3], ad_in, sizeof ad_in)) return 92;
  failed = interleave(NULL, 0, kws_out, ad_out);
  if (failed != 0) return failed;
  failed = interleave(aligned, MICROAOT_SHARED_ARENA_SIZE, kws_again, ad_again);
  if (failed != 0) return 20 + failed;
  if (memcmp(kws_out, kws_again, sizeof kws_out) != 0 || memcmp(ad_out, ad_again, sizeof ad_out) != 0) return 93;
  return write_raw(argv[2], kws_out, sizeof kws_out) || write_raw(argv[4], ad_out, sizeof ad_out) ? 94 : 0;
}
