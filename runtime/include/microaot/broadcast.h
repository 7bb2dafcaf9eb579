/* The broadcast walk of the element-wise kernels with two or three inputs (ADD, MUL, ..., SELECT_V2),
 * NumPy-style broadcasting. The compiler merges the output into at most MICROAOT_BROADCAST_MAX_DIMS
 * dimensions with each input's element strides (0 along a dimension where that input is broadcast);
 * num_dims 0 means every input has the output's layout and one flat row covers everything. The walk visits
 * the output in order, one innermost row at a time, so element i of an input that is not broadcast is read
 * just before output element i is stored: the output may overlap such an input when output <= input
 * (element_wise_max_shift in compiler/ops/in_place_bounds.h); it must not overlap a broadcast input. */
#ifndef MICROAOT_BROADCAST_H
#define MICROAOT_BROADCAST_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/params.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MICROAOT_BROADCAST_MAX_DIMS 6
#define MICROAOT_BROADCAST_MAX_INPUTS 3

/* The leading fields of every binary kernel's params struct. */
#define MICROAOT_BROADCAST_FIELDS(X)                                       \
  X(I32, flat_size)            /* output elements */                       \
  X(I32, num_dims)             /* 0: same layouts, one flat row; else 1..6 */ \
  X(I32_ARRAY, output_shape)   /* [num_dims] merged output dimensions */   \
  X(I32_ARRAY, input1_strides) /* [num_dims] element strides of input 1 */ \
  X(I32_ARRAY, input2_strides) /* [num_dims] the same for input 2 */

/* The leading fields of a three-input kernel's params struct. */
#define MICROAOT_BROADCAST3_FIELDS(X) \
  MICROAOT_BROADCAST_FIELDS(X)        \
  X(I32_ARRAY, input3_strides) /* [num_dims] the same for input 3 */

/* Kernels that need nothing but the walk (MAXIMUM, MINIMUM, comparisons of raw values, logical operators). */
#define MICROAOT_FIELDS_binary_params(X) MICROAOT_BROADCAST_FIELDS(X)
MICROAOT_DEFINE_PARAMS(binary_params)

/* Float kernels that need nothing but the walk and the fused activation clamp. */
#define MICROAOT_FIELDS_binary_params_f32(X)                                          \
  MICROAOT_BROADCAST_FIELDS(X)                                                        \
  X(F32, activation_min) /* fused activation clamp (-FLT_MAX / FLT_MAX without one) */ \
  X(F32, activation_max)
MICROAOT_DEFINE_PARAMS(binary_params_f32)

/* The same for int32 tensors, which carry no quantization. */
#define MICROAOT_FIELDS_binary_params_s32(X)                                             \
  MICROAOT_BROADCAST_FIELDS(X)                                                           \
  X(I32, activation_min) /* fused activation clamp (INT32_MIN / INT32_MAX without one) */ \
  X(I32, activation_max)
MICROAOT_DEFINE_PARAMS(binary_params_s32)

typedef struct {
  int32_t flat_size;
  int32_t num_dims;
  int32_t num_inputs;
  const int32_t* shape;
  const int32_t* strides[MICROAOT_BROADCAST_MAX_INPUTS]; /* [num_inputs][num_dims] */
} microaot_broadcast;

/* The walk of a params struct that starts with MICROAOT_BROADCAST_FIELDS (MICROAOT_BROADCAST3_FIELDS). */
#define MICROAOT_BROADCAST_OF(p) \
  { (p)->flat_size, (p)->num_dims, 2, (p)->output_shape, { (p)->input1_strides, (p)->input2_strides, NULL } }
#define MICROAOT_BROADCAST3_OF(p)                                                                         \
  {                                                                                                       \
    (p)->flat_size, (p)->num_dims, 3, (p)->output_shape,                                                  \
        { (p)->input1_strides, (p)->input2_strides, (p)->input3_strides }                                 \
  }

/* One innermost row: outputs done .. done + n - 1; the first reads element at[k] of inputs[k], each next one
 * step[k] elements further (0 for a broadcast input). Offsets are in elements, so each kernel applies its
 * own element types. */
typedef void (*microaot_broadcast_row)(const void* params, const void* const* inputs, const ptrdiff_t* at,
                                       const int32_t* step, void* output, ptrdiff_t done, int32_t n);

/* Calls `row` for every innermost row of the output, in order. */
static inline void microaot_broadcast_walk(const microaot_broadcast* w, const void* params,
                                           const void* const* inputs, void* output, microaot_broadcast_row row) {
  int32_t index[MICROAOT_BROADCAST_MAX_DIMS] = {0};
  ptrdiff_t at[MICROAOT_BROADCAST_MAX_INPUTS] = {0};
  int32_t step[MICROAOT_BROADCAST_MAX_INPUTS] = {0};
  const int32_t n = w->num_dims;
  const int32_t inner = n == 0 ? w->flat_size : w->shape[n - 1];
  int32_t done, d, k;
  if (inner <= 0) return;
  for (k = 0; k < w->num_inputs; ++k) step[k] = n == 0 ? 1 : w->strides[k][n - 1];
  if (n <= 2) { /* rows of one matrix (the usual merged walk): no odometer */
    for (done = 0; done < w->flat_size; done += inner) {
      row(params, inputs, at, step, output, done, inner);
      for (k = 0; k < w->num_inputs && n == 2; ++k) at[k] += w->strides[k][0];
    }
    return;
  }
  for (done = 0; done < w->flat_size; done += inner) {
    row(params, inputs, at, step, output, done, inner);
    for (d = n - 2; d >= 0; --d) { /* odometer over the outer dimensions */
      for (k = 0; k < w->num_inputs; ++k) at[k] += w->strides[k][d];
      if (++index[d] < w->shape[d]) break;
      for (k = 0; k < w->num_inputs; ++k) at[k] -= (ptrdiff_t)w->strides[k][d] * w->shape[d];
      index[d] = 0;
    }
  }
}

/* How the DSP kernels of a binary operator with a folded form (add_s8_linear, mul_s8_folded) run a walk, which
 * the compiler's network_info.txt reports: both operands per element (flat, or both stepping by 1), one operand
 * broadcast along the innermost rows (a scalar, a row constant: folded into each row's constants), a per-channel
 * vector (walk [rows, channels], strides {0, 1} against {channels, 1}: folded into a table per channel), or
 * element by element (other steps). *broadcast_input: which input is broadcast (rows, channels). */
enum { MICROAOT_FOLD_NONE, MICROAOT_FOLD_ROWS, MICROAOT_FOLD_CHANNELS, MICROAOT_FOLD_STRIDED };
static inline int microaot_broadcast_fold_kind(int32_t num_dims, const int32_t* shape, const int32_t* strides1,
                                               const int32_t* strides2, int* broadcast_input) {
  const int32_t* const strides[2] = {strides1, strides2};
  int k;
  if (num_dims == 0) return MICROAOT_FOLD_NONE;
  for (k = 0; k < 2 && num_dims == 2; ++k) {
    if (strides[k][0] == 0 && strides[k][1] == 1 && strides[1 - k][0] == shape[1] && strides[1 - k][1] == 1) {
      *broadcast_input = k;
      return MICROAOT_FOLD_CHANNELS;
    }
  }
  if (strides1[num_dims - 1] == 1 && strides2[num_dims - 1] == 1) return MICROAOT_FOLD_NONE;
  if (strides1[num_dims - 1] + strides2[num_dims - 1] == 1) {
    *broadcast_input = strides1[num_dims - 1] == 0 ? 0 : 1;
    return MICROAOT_FOLD_ROWS;
  }
  return MICROAOT_FOLD_STRIDED;
}

/* Defines `void microaot_<name>(const P* params, const T1* input1, const T2* input2, OUT* output)`: every
 * output element is (OUT)ELEMENT(params, a, b) of its two (broadcast) input elements. */
#define MICROAOT_DEFINE_MIXED_BINARY_KERNEL(name, P, T1, T2, OUT, ELEMENT)                                           \
  static inline void name##_row(const void* params, const void* const* inputs, const ptrdiff_t* at,           \
                         const int32_t* step, void* output, ptrdiff_t done, int32_t n) {                      \
    const P* p = (const P*)params;                                                                            \
    const T1* a = (const T1*)inputs[0] + at[0];                                                               \
    const T2* b = (const T2*)inputs[1] + at[1];                                                               \
    const int32_t step1 = step[0], step2 = step[1];                                                           \
    OUT* o = (OUT*)output + done;                                                                             \
    int32_t c;                                                                                                \
    (void)p;                                                                                                  \
    for (c = 0; c < n; ++c) o[c] = (OUT)(ELEMENT(p, a[c * step1], b[c * step2]));                             \
  }                                                                                                           \
  void microaot_##name(const P* params, const T1* input1, const T2* input2, OUT* output) {                   \
    const microaot_broadcast walk = MICROAOT_BROADCAST_OF(params);                                            \
    const void* inputs[2];                                                                                    \
    inputs[0] = input1;                                                                                       \
    inputs[1] = input2;                                                                                       \
    microaot_broadcast_walk(&walk, params, inputs, output, name##_row);                                       \
  }

/* The same with inputs of one type T. */
#define MICROAOT_DEFINE_BINARY_KERNEL_TO(name, P, T, OUT, ELEMENT) \
  MICROAOT_DEFINE_MIXED_BINARY_KERNEL(name, P, T, T, OUT, ELEMENT)
/* The same with the output of the inputs' type. */
#define MICROAOT_DEFINE_BINARY_KERNEL(name, P, T, ELEMENT) MICROAOT_DEFINE_BINARY_KERNEL_TO(name, P, T, T, ELEMENT)

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_BROADCAST_H */
