// Compile-time tables of a kernel's own arithmetic, at --optimize speed and balanced. int8 -> int8 element-wise
// kernels become one 256-entry table (the lut kernel): their output depends on the input value alone (scalar
// params, integer arithmetic, which the host computes as the target does), so the compiler runs the kernel
// itself over the 256 values, and a LOGISTIC that costs about 250 instructions an element on a Cortex-M4 costs
// a load and a store. An int8 SOFTMAX keeps its arithmetic with the exps of its 256 possible differences read
// from a table (softmax_s8_table); an int8 PRELU reads its identity side from one (prelu_s8_table).
#pragma once

#include "kernels/kernel_call.h"
#include "target/target.h"

namespace microaot {

// `call` as a lut_s8 call with the table its own kernel computes, or as softmax_s8_table or prelu_s8_table, where
// its stem is one of the tabulated ones and the target does not optimise for size; else `call` unchanged.
KernelCall tabulated(const KernelCall& call, const Target& target);

}  // namespace microaot
