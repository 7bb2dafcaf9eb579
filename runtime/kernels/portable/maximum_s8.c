/* MAXIMUM int8: the larger of input1 and input2 (quantized values as they are), over the broadcast walk
 * (microaot/broadcast.h). */
#include "microaot/kernels/maximum_minimum.h"

MICROAOT_DEFINE_BINARY_KERNEL(maximum_s8, microaot_binary_params, int8_t, MICROAOT_MAXIMUM)
