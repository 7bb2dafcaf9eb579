/* Two modules of the same model in one program, each with its own symbols, arena and alignment, linked
 * through their generated CMake libraries: both must give the same output. Exit 0 = pass. */
#include <stdio.h>
#include <string.h>
#include "alpha.h"
#include "beta.h"
int main(void) {
  static unsigned char in[ALPHA_INPUT_0_SIZE];
  unsigned char oa[ALPHA_OUTPUT_0_SIZE], ob[BETA_OUTPUT_0_SIZE];
  alpha_context a; beta_context b; size_t i;
  for (i = 0; i < sizeof in; ++i) in[i] = (unsigned char)(i * 7u);
  if (alpha_init(&a, NULL, 0) || beta_init(&b, NULL, 0)) return 1;
  if (alpha_set_input(&a, 0, in, sizeof in) || beta_set_input(&b, 0, in, sizeof in)) return 1;
  if (alpha_run(&a) || beta_run(&b)) return 1;
  if (alpha_get_output(&a, 0, oa, sizeof oa) || beta_get_output(&b, 0, ob, sizeof ob)) return 1;
  return memcmp(oa, ob, sizeof oa) != 0;
}
