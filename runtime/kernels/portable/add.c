/* ADD, every type, over the broadcast walk: int8 and int16 with TFLM's reference arithmetic (left shift 20
 * or 15, per-input multipliers, output rescale), float as input1 + input2 then the activation clamp. */
#include "microaot/fixedpoint.h"
#include "microaot/kernels/add.h"

#define ADD_QUANTIZED(p, a, b) microaot_add_quantized_element(p, a, b)
#define ADD_FLOAT(p, a, b) microaot_clamp_f32((a) + (b), (p)->activation_min, (p)->activation_max)

MICROAOT_DEFINE_BINARY_KERNEL(add_s8, microaot_add_params_q, int8_t, ADD_QUANTIZED)
MICROAOT_DEFINE_BINARY_KERNEL(add_s16, microaot_add_params_q, int16_t, ADD_QUANTIZED)
MICROAOT_DEFINE_BINARY_KERNEL(add_f32, microaot_binary_params_f32, float, ADD_FLOAT)
