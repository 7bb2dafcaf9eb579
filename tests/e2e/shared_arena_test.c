/* Two different models compiled into one folder with one shared arena (`microaot compile a b -o OUT`):
 * run one after the other on the same arena, each must give its own golden output.
 * Usage: shared_arena_test KWS_IN KWS_OUT AD_IN AD_OUT (raw files). Exit 0 = ran; outputs compared by the test. */
#include <stdio.h>
#include <string.h>

#include "ad.h"
#include "kws.h"
#include "shared_arena.h"

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

int main(int argc, char **argv) {
  static unsigned char kws_in[KWS_INPUT_0_SIZE], kws_out[KWS_OUTPUT_0_SIZE];
  static unsigned char ad_in[AD_INPUT_0_SIZE], ad_out[AD_OUTPUT_0_SIZE];
  kws_context k;
  ad_context a;
  if (argc != 5) return 2;
  if (MICROAOT_SHARED_ARENA_SIZE < KWS_ARENA_SIZE || MICROAOT_SHARED_ARENA_SIZE < AD_ARENA_SIZE) return 3;
  if (read_raw(argv[1], kws_in, sizeof kws_in) || read_raw(argv[3], ad_in, sizeof ad_in)) return 4;
  if (kws_init(&k, NULL, 0) || kws_set_input(&k, 0, kws_in, sizeof kws_in) || kws_run(&k)) return 5;
  if (kws_get_output(&k, 0, kws_out, sizeof kws_out) || kws_destroy(&k)) return 6;
  if (ad_init(&a, NULL, 0) || ad_set_input(&a, 0, ad_in, sizeof ad_in) || ad_run(&a)) return 7;
  if (ad_get_output(&a, 0, ad_out, sizeof ad_out) || ad_destroy(&a)) return 8;
  return write_raw(argv[2], kws_out, sizeof kws_out) || write_raw(argv[4], ad_out, sizeof ad_out);
}
