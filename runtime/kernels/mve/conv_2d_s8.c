/* int8 CONV_2D with Helium (MVE), bit-exact with the portable kernel: the rows of microaot/internal/mve_conv.h,
 * the input offset's products folded into each channel's bias once per call (the compiler's folded-bias kernel,
 * conv_2d_s8_mve.c, takes the layers it can give the fold to; this stem keeps the others). Grouped
 * convolutions, windows larger than the stack buffer, more channels than the folded-bias buffer and shifts
 * outside VRSHL's range (microaot/fit/mve_matmul.h) take the portable code; so does a build without MVE. */
#include <stddef.h>

#include "microaot/internal/mve_conv.h"
#include "microaot/kernels/conv.h"

#if MICROAOT_MVE
/* The portable kernels, for the shapes the vector code does not take, as this file's own functions. */
#define MICROAOT_CONV_LINKAGE static
#define MICROAOT_FN conv_portable
#define MICROAOT_FN_OVERLAP conv_overlap_portable
#else
#define MICROAOT_FN microaot_conv_2d_s8
#define MICROAOT_FN_OVERLAP microaot_conv_2d_s8_overlap
#endif
#define MICROAOT_DTYPE s8
#define MICROAOT_CONV conv_2d
#include "microaot/internal/templates/conv.h"

#if MICROAOT_MVE
/* Both variants: the rows through `row_scratch` for the overlap one (its scratch), else straight. */
static void conv_mve(const conv_params* p, const int8_t* input, const int8_t* filter, const int32_t* bias,
                     int8_t* output, void* row_scratch) {
  if (mve_handles(p)) {
    conv_rows_mve(p, input, filter, bias, NULL, output, (int8_t*)row_scratch);
  } else if (row_scratch != NULL) {
    conv_overlap_portable(p, input, filter, bias, output, row_scratch);
  } else {
    conv_portable(p, input, filter, bias, output);
  }
}

void microaot_conv_2d_s8(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                         const int32_t* bias, int8_t* output) {
  conv_mve(params, input, filter, bias, output, NULL);
}

void microaot_conv_2d_s8_overlap(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                                 const int32_t* bias, int8_t* output, void* scratch) {
  conv_mve(params, input, filter, bias, output, scratch);
}
#endif /* MICROAOT_MVE */
