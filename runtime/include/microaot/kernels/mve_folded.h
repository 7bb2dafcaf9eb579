/* Helium (MVE) matrix products over a bias the compiler folded (compiler/ops/mve_weights.h): an int8 CONV_2D
 * (1x1 and k x k, ungrouped) and an int8 FULLY_CONNECTED with symmetric weights, each taking the model's own
 * weights (each output channel's row contiguous: the 16-lane loop's layout as it is) and `folded_bias`:
 *   folded_bias[c] = bias[c] + input_offset * the sum of channel c's weights (mod 2^32),
 * so that the loops multiply the int8 operands as they are and no pass over the weights runs per call. A k x k
 * window's taps outside the image take the input zero point (-input_offset, which the params still hold), whose
 * products the folded bias cancels; a FULLY_CONNECTED and a 1x1 CONV_2D without padding never read
 * input_offset. Bit-exact with microaot_conv_2d_s8 / microaot_fully_connected_s8 on the original bias.
 * Without MVE, and for a layer the vector code does not take, plain C over the same arguments. */
#ifndef MICROAOT_KERNELS_MVE_FOLDED_H
#define MICROAOT_KERNELS_MVE_FOLDED_H

#include <stdint.h>

#include "microaot/kernels/conv.h"
#include "microaot/kernels/fully_connected.h"

#ifdef __cplusplus
extern "C" {
#endif

void microaot_conv_2d_s8_mve(const microaot_conv_2d_params_q* params, const int8_t* input, const int8_t* filter,
                             const int32_t* folded_bias, int8_t* output);
/* The overlap flavor, as microaot_conv_2d_s8_overlap: scratch holds one output row. */
void microaot_conv_2d_s8_mve_overlap(const microaot_conv_2d_params_q* params, const int8_t* input,
                                     const int8_t* filter, const int32_t* folded_bias, int8_t* output,
                                     void* scratch);
void microaot_fully_connected_s8_mve(const microaot_fully_connected_params_q* params, const int8_t* input,
                                     const int8_t* weights, const int32_t* folded_bias, int8_t* output);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_KERNELS_MVE_FOLDED_H */
