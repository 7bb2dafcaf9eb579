/* LOGICAL_AND: input1 && input2 on bool bytes, over the broadcast walk (microaot/broadcast.h). */
#include "microaot/kernels/logical.h"

MICROAOT_DEFINE_BINARY_KERNEL(logical_and_bool, microaot_binary_params, uint8_t, MICROAOT_LOGICAL_AND)
