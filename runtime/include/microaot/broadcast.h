/* The broadcast walk of the element-wise binary kernels (ADD, MUL, ...), NumPy-style broadcasting. The
 * compiler merges the output into at most MICROAOT_BROADCAST_MAX_DIMS dimensions with each input's element
 * strides (0 along a dimension where that input is broadcast); num_dims 0 means both inputs have the
 * output's layout and one flat row covers everything. The walk visits the output in order, one innermost row
 * at a time, so element i of an input that is not broadcast is read just before output element i is stored:
 * the output may overlap such an input when output <= input (element_wise_max_shift in
 * compiler/ops/in_place_bounds.h); it must not overlap a broadcast input. */
#ifndef MICROAOT_BROADCAST_H
#define MICROAOT_BROADCAST_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_BROADCAST_MAX_DIMS 6

/* The leading fields of every binary kernel's params struct. */
#define MICROAOT_BROADCAST_FIELDS(X)                                       \
  X(I32, flat_size)            /* output elements */                       \
  X(I32, num_dims)             /* 0: same layouts, one flat row; else 1..6 */ \
  X(I32_ARRAY, output_shape)   /* [num_dims] merged output dimensions */   \
  X(I32_ARRAY, input1_strides) /* [num_dims] element strides of input 1 */ \
  X(I32_ARRAY, input2_strides) /* [num_dims] the same for input 2 */

/* Float kernels that need nothing but the walk and the fused activation clamp. */
#define MICROAOT_FIELDS_binary_params_f32(X)                                          \
  MICROAOT_BROADCAST_FIELDS(X)                                                        \
  X(F32, activation_min) /* fused activation clamp (-FLT_MAX / FLT_MAX without one) */ \
  X(F32, activation_max)
MICROAOT_DEFINE_PARAMS(binary_params_f32)

typedef struct {
  int32_t flat_size;
  int32_t num_dims;
  const int32_t* shape;
  const int32_t* strides1;
  const int32_t* strides2;
} microaot_broadcast;

/* The walk of a params struct that starts with MICROAOT_BROADCAST_FIELDS. */
#define MICROAOT_BROADCAST_OF(p) \
  { (p)->flat_size, (p)->num_dims, (p)->output_shape, (p)->input1_strides, (p)->input2_strides }

/* One innermost row: n outputs, out[c] from in1[c * step1] and in2[c * step2]. */
typedef void (*microaot_binary_row)(const void* params, const void* in1, int32_t step1, const void* in2,
                                    int32_t step2, void* out, int32_t n);

/* The bytes of one element of input 1, input 2 and the output. */
typedef struct {
  size_t input1;
  size_t input2;
  size_t output;
} microaot_element_sizes;

/* Calls `row` for every innermost row of the output, in order. */
static inline void microaot_broadcast_walk(const microaot_broadcast* w, const void* params,
                                           microaot_element_sizes sizes, const void* in1, const void* in2,
                                           void* out, microaot_binary_row row) {
  const char* a = (const char*)in1;
  const char* b = (const char*)in2;
  char* o = (char*)out;
  int32_t index[MICROAOT_BROADCAST_MAX_DIMS] = {0};
  ptrdiff_t offset1 = 0, offset2 = 0;
  const int32_t n = w->num_dims;
  const int32_t inner = n == 0 ? w->flat_size : w->shape[n - 1];
  int32_t done, d;
  if (inner <= 0) return;
  for (done = 0; done < w->flat_size; done += inner) {
    row(params, a + offset1 * (ptrdiff_t)sizes.input1, n == 0 ? 1 : w->strides1[n - 1],
        b + offset2 * (ptrdiff_t)sizes.input2, n == 0 ? 1 : w->strides2[n - 1],
        o + (ptrdiff_t)done * (ptrdiff_t)sizes.output, inner);
    for (d = n - 2; d >= 0; --d) { /* odometer over the outer dimensions */
      offset1 += w->strides1[d];
      offset2 += w->strides2[d];
      if (++index[d] < w->shape[d]) break;
      offset1 -= (ptrdiff_t)w->strides1[d] * w->shape[d];
      offset2 -= (ptrdiff_t)w->strides2[d] * w->shape[d];
      index[d] = 0;
    }
  }
}

/* Defines `void microaot_<name>(const P* params, const T1* input1, const T2* input2, TO* output)`: every output
 * element is (TO)ELEMENT(params, a, b) of its two (broadcast) input elements. */
#define MICROAOT_DEFINE_MIXED_BINARY_KERNEL(name, P, T1, T2, TO, ELEMENT)                                 \
  static void name##_row(const void* params, const void* in1, int32_t step1, const void* in2,             \
                         int32_t step2, void* out, int32_t n) {                                           \
    const P* p = (const P*)params;                                                                        \
    const T1* a = (const T1*)in1;                                                                         \
    const T2* b = (const T2*)in2;                                                                         \
    TO* o = (TO*)out;                                                                                     \
    int32_t c;                                                                                            \
    (void)p; /* element functions may not need the params */                                              \
    for (c = 0; c < n; ++c) o[c] = (TO)(ELEMENT(p, a[c * step1], b[c * step2]));                          \
  }                                                                                                       \
  void microaot_##name(const P* params, const T1* input1, const T2* input2, TO* output) {                 \
    const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);                                        \
    const microaot_element_sizes sizes = {sizeof(T1), sizeof(T2), sizeof(TO)};                            \
    microaot_broadcast_walk(&walk, params, sizes, input1, input2, output, name##_row);                    \
  }

/* The same with one type T for both inputs and the output. */
#define MICROAOT_DEFINE_BINARY_KERNEL(name, P, T, ELEMENT) \
  MICROAOT_DEFINE_MIXED_BINARY_KERNEL(name, P, T, T, T, ELEMENT)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_BROADCAST_H */
