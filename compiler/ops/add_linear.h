// Compile-time specialisation of int8 ADD and SUB for the DSP extension: TFLM's three rescalings (each input
// shifted left by 20 and rescaled, the sum rescaled to the output) replaced by one linear form of the two int8
// values, microaot_add_s8_linear's clamp(floor((bias + floor(m1 * q1 / 2^8) + floor(m2 * q2 / 2^8)) / 2^16)).
// The form is fitted near the real-valued slopes and kept only when it gives the portable kernel's output for
// every one of the 65,536 pairs of input values (a proof by exhaustion; broadcasting pairs the same values)
// with every partial sum within int32; otherwise the layer keeps the general kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/kernel_call.h"
#include "microaot/kernels/add.h"
#include "target/target.h"

namespace microaot {

// {m1, m2, bias} for the layer of `params` (ADD, or SUB when `subtract`), or empty when none fits.
std::vector<int32_t> fit_add_linear_form(const microaot_add_params_q& params, bool subtract);

// Turns `call` (lowered for add_s8 or sub_s8, args input 1, input 2, output) into a call of add_s8_linear over
// the fitted form on a target with the DSP extension (add_s8_folded where one operand is broadcast along the rows
// or channels, off Helium), and states the choice in call.specialisation.
void use_add_linear_form(KernelCall& call, const Target& target, bool subtract);

}  // namespace microaot
