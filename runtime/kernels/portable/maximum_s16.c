/* MAXIMUM int16: the larger of input1 and input2 (quantized values as they are), over the broadcast walk
 * (microaot/broadcast.h). */
#include "microaot/kernels/maximum_minimum.h"

MICROAOT_DEFINE_BINARY_KERNEL(maximum_s16, microaot_binary_params, int16_t, MICROAOT_MAXIMUM)
