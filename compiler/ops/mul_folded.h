// Compile-time specialisation of int8 MUL with one operand broadcast (a scalar, a row constant, a per-channel
// vector) for the DSP extension: for each value v of the broadcast operand, TFLM's product and rescaling of the
// other operand's q become one slope m[v] and one bias b[v] of microaot_dsp_fold_element (the kernel's own
// arithmetic, microaot/internal/dsp_fold.h: clamp(floor((b + floor(m * q / 2^8)) / 2^16)) packed by USAT16), fitted
// near the real slope and kept only when all 256 x 256 pairs of input values give the portable kernel's output
// with every sum within int32 (a proof by exhaustion). Otherwise the layer keeps mul_s8, and network_info.txt says why.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/kernel_call.h"
#include "microaot/kernels/mul.h"
#include "target/target.h"

namespace microaot {

// The forms of microaot_mul_s8_folded (slopes[256], offset biases[256], `broadcast`) for the layer of `params`
// whose input `broadcast` (0 or 1) is the broadcast one, or empty with the reason in *why. `values`: the values
// the broadcast operand takes when it is a constant (only theirs need a form; the others' stay 0), else empty
// (all 256). TFLM's two roundings, each with ties away from zero, leave some layers with a value of no form.
std::vector<int32_t> fit_mul_folded_forms(const microaot_mul_params_q& params, int broadcast, std::string* why,
                                          const std::vector<int8_t>& values = {});

// MUL's chooser: a call of mul_s8 whose walk folds (microaot_broadcast_fold_kind) becomes mul_s8_folded over the
// fitted forms on a target with the DSP extension (not Helium, whose mul_s8 is wider), the choice or the reason
// against it in call.specialisation.
// `constants`: each input's bytes where it is a constant tensor (Graph's data), else empty.
void use_mul_folded_form(KernelCall& call, const Target& target,
                         const std::vector<std::vector<uint8_t>>& constants = {});

}  // namespace microaot
