/* MAXIMUM int64: the larger of input1 and input2, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/maximum_minimum.h"

MICROAOT_DEFINE_BINARY_KERNEL(maximum_s64, microaot_binary_params, int64_t, MICROAOT_MAXIMUM)
