/* MAXIMUM and MINIMUM int8 for a cpu with the DSP extension (runtime/kernels/dsp/maximum_s8.c, minimum_s8.c):
 * the broadcast walk's rows four elements a word, one SSUB8 + SEL each (microaot_dsp_smax8 / smin8), where each
 * input steps by one or is one value along the row (its byte in every lane); other steps and a row's last one
 * to three elements one by one. The portable kernel takes about 11 instructions an element. */
#ifndef MICROAOT_INTERNAL_DSP_PICK_H
#define MICROAOT_INTERNAL_DSP_PICK_H

#include <string.h>

#include "microaot/internal/dsp.h"
#include "microaot/kernels/maximum_minimum.h"

/* Defines microaot_<name> over PICK4 (a word's lanes) and PICK1 (one element, as the portable kernel's). */
#define MICROAOT_DEFINE_DSP_PICK_KERNEL(name, PICK4, PICK1)                                                       \
  static void name##_words(const void* params, const void* const* inputs, const ptrdiff_t* at,                   \
                           const int32_t* step, void* output, ptrdiff_t done, int32_t n) {                       \
    const int8_t* a = (const int8_t*)inputs[0] + at[0];                                                          \
    const int8_t* b = (const int8_t*)inputs[1] + at[1];                                                          \
    const int32_t step1 = step[0], step2 = step[1];                                                              \
    int8_t* o = (int8_t*)output + done;                                                                          \
    int32_t c = 0;                                                                                               \
    (void)params;                                                                                                \
    if ((step1 == 0 || step1 == 1) && (step2 == 0 || step2 == 1)) {                                              \
      const uint32_t ra = 0x01010101u * (uint8_t)a[0], rb = 0x01010101u * (uint8_t)b[0];                         \
      for (; c + 4 <= n; c += 4) {                                                                               \
        const uint32_t r = PICK4(step1 != 0 ? microaot_dsp_load4(a + c) : ra,                                    \
                                 step2 != 0 ? microaot_dsp_load4(b + c) : rb);                                   \
        memcpy(o + c, &r, 4);                                                                                    \
      }                                                                                                          \
    }                                                                                                            \
    for (; c < n; ++c) o[c] = (int8_t)(PICK1(params, a[c * step1], b[c * step2]));                              \
  }                                                                                                              \
  void microaot_##name(const microaot_binary_params* params, const int8_t* input1, const int8_t* input2,        \
                       int8_t* output) {                                                                         \
    const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);                                               \
    const void* inputs[2];                                                                                       \
    inputs[0] = input1;                                                                                          \
    inputs[1] = input2;                                                                                          \
    microaot_broadcast_walk(&walk, params, inputs, output, name##_words);                                        \
  }

#endif /* MICROAOT_INTERNAL_DSP_PICK_H */
