/* Table lookup int8 -> int8: one 256-entry table computed at compile time (ELU, and the element-wise kernels the
 * compiler tabulates: compiler/kernels/tabulate.h). The table and the count are held in locals, four elements
 * read before four are written (in place is safe): an int8 store may alias the params, which a plain loop
 * reloads for every element. */
#include "microaot/kernels/activations.h"

void microaot_lut_s8(const microaot_lut_params_s8* params, const int8_t* input, int8_t* output) {
  const int8_t* const table = params->table + 128;
  const int32_t size = params->size;
  int32_t i;
  for (i = 0; i + 4 <= size; i += 4) {
    const int32_t a = input[i], b = input[i + 1], c = input[i + 2], d = input[i + 3];
    output[i] = table[a], output[i + 1] = table[b], output[i + 2] = table[c], output[i + 3] = table[d];
  }
  for (; i < size; ++i) output[i] = table[input[i]];
}
