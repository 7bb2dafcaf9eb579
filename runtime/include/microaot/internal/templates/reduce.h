/* The reduction template: one output element from each group of input elements, over the two walks of
 * microaot/kernels/reduce.h. The including file defines MICROAOT_DTYPE (the input type: s8, s16, f32),
 * MICROAOT_REDUCE (the operation: sum, max, min, arg_max, arg_min), MICROAOT_FN (declared in
 * microaot/kernels/reduce.h); arg_max / arg_min write int32 indices. An
 * operation is four traits: its accumulator type ACC, INIT from the group's first element, STEP folding the
 * r-th element x of the group, and FINISH making the output value; PARAMS and OUT are its struct and type. */
#include <stddef.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/reduce.h"

/* sum (SUM and MEAN): integers add raw values in 32 bits that wrap as TFLM's int32 accumulator does, float
 * adds from 0.0f in the group's order. */
#define MICROAOT_REDUCE_SUM_ACC_s8 int32_t
#define MICROAOT_REDUCE_SUM_ACC_s16 int32_t
#define MICROAOT_REDUCE_SUM_ACC_f32 float
#define MICROAOT_REDUCE_SUM_ADD_s8(acc, x) ((acc) = microaot_wrapping_add_s32(acc, x))
#define MICROAOT_REDUCE_SUM_ADD_s16(acc, x) ((acc) = microaot_wrapping_add_s32(acc, x))
#define MICROAOT_REDUCE_SUM_ADD_f32(acc, x) ((acc) += (x))
#define MICROAOT_REDUCE_SUM_FINISH_s8(p, acc) ((int8_t)microaot_reduce_sum_output(p, acc, INT8_MIN, INT8_MAX))
#define MICROAOT_REDUCE_SUM_FINISH_s16(p, acc) ((int16_t)microaot_reduce_sum_output(p, acc, INT16_MIN, INT16_MAX))
#define MICROAOT_REDUCE_SUM_FINISH_f32(p, acc) ((acc) / (p)->divisor)
#define MICROAOT_REDUCE_SUM_PARAMS_s8 microaot_reduce_sum_params_q
#define MICROAOT_REDUCE_SUM_PARAMS_s16 microaot_reduce_sum_params_q
#define MICROAOT_REDUCE_SUM_PARAMS_f32 microaot_reduce_sum_params_f32

#define MICROAOT_REDUCE_ACC_sum MICROAOT_CAT(MICROAOT_REDUCE_SUM_ACC_, MICROAOT_DTYPE)
#define MICROAOT_REDUCE_PARAMS_sum MICROAOT_CAT(MICROAOT_REDUCE_SUM_PARAMS_, MICROAOT_DTYPE)
#define MICROAOT_REDUCE_OUT_sum MICROAOT_T
#define MICROAOT_REDUCE_INIT_sum(acc, first) ((acc) = 0)
#define MICROAOT_REDUCE_STEP_sum(acc, x, r) MICROAOT_CAT(MICROAOT_REDUCE_SUM_ADD_, MICROAOT_DTYPE)(acc, x)
#define MICROAOT_REDUCE_FINISH_sum(p, acc) MICROAOT_CAT(MICROAOT_REDUCE_SUM_FINISH_, MICROAOT_DTYPE)(p, acc)

/* max and min start from the lowest (highest) value of the type, as TFLM does (so floats never go below
 * -FLT_MAX), and keep the current value unless the element is strictly beyond it (NaN never is). */
#define MICROAOT_REDUCE_ACC_max MICROAOT_T
#define MICROAOT_REDUCE_PARAMS_max microaot_reduce_params
#define MICROAOT_REDUCE_OUT_max MICROAOT_T
#define MICROAOT_REDUCE_INIT_max(acc, first) ((acc) = MICROAOT_MIN)
#define MICROAOT_REDUCE_STEP_max(acc, x, r) \
  if ((x) > (acc)) (acc) = (x)
#define MICROAOT_REDUCE_FINISH_max(p, acc) (acc)
#define MICROAOT_REDUCE_ACC_min MICROAOT_T
#define MICROAOT_REDUCE_PARAMS_min microaot_reduce_params
#define MICROAOT_REDUCE_OUT_min MICROAOT_T
#define MICROAOT_REDUCE_INIT_min(acc, first) ((acc) = MICROAOT_MAX)
#define MICROAOT_REDUCE_STEP_min(acc, x, r) \
  if ((x) < (acc)) (acc) = (x)
#define MICROAOT_REDUCE_FINISH_min(p, acc) (acc)

/* arg_max and arg_min start from the first element at index 0 and move only to a strictly larger (smaller)
 * element, so the first of equal extremes wins and a NaN neither wins nor is replaced, as in TFLM. */
typedef struct {
  MICROAOT_T value;
  int32_t index;
} reduce_arg_acc;
#define MICROAOT_REDUCE_ACC_arg_max reduce_arg_acc
#define MICROAOT_REDUCE_PARAMS_arg_max microaot_reduce_params
#define MICROAOT_REDUCE_OUT_arg_max int32_t
#define MICROAOT_REDUCE_INIT_arg_max(acc, first) ((acc).value = (first), (acc).index = 0)
#define MICROAOT_REDUCE_STEP_arg_max(acc, x, r) \
  if ((x) > (acc).value) (acc).value = (x), (acc).index = (r)
#define MICROAOT_REDUCE_FINISH_arg_max(p, acc) ((acc).index)
#define MICROAOT_REDUCE_ACC_arg_min reduce_arg_acc
#define MICROAOT_REDUCE_PARAMS_arg_min microaot_reduce_params
#define MICROAOT_REDUCE_OUT_arg_min int32_t
#define MICROAOT_REDUCE_INIT_arg_min(acc, first) ((acc).value = (first), (acc).index = 0)
#define MICROAOT_REDUCE_STEP_arg_min(acc, x, r) \
  if ((x) < (acc).value) (acc).value = (x), (acc).index = (r)
#define MICROAOT_REDUCE_FINISH_arg_min(p, acc) ((acc).index)

/* MICROAOT_REDUCE_TRAIT(STEP) -> MICROAOT_REDUCE_STEP_max; pasted apart from MICROAOT_CAT, which the traits use. */
#define MICROAOT_REDUCE_GLUE(trait, op) trait##_##op
#define MICROAOT_REDUCE_XGLUE(trait, op) MICROAOT_REDUCE_GLUE(trait, op)
#define MICROAOT_REDUCE_TRAIT(trait) MICROAOT_REDUCE_XGLUE(MICROAOT_REDUCE_##trait, MICROAOT_REDUCE)
#define MICROAOT_REDUCE_PARAMS MICROAOT_REDUCE_TRAIT(PARAMS)
#define MICROAOT_REDUCE_OUT MICROAOT_REDUCE_TRAIT(OUT)

/* One output value: the group's elements in row-major order over the reduced walk, its innermost dimension
 * as a strided row. */
static MICROAOT_REDUCE_OUT reduce_group(const MICROAOT_REDUCE_PARAMS* p, const MICROAOT_T* group) {
  const int32_t outer_dims = p->reduced_dims - 1;
  const int32_t row_size = p->reduced_shape[outer_dims];
  const ptrdiff_t step = p->reduced_strides[outer_dims];
  int32_t index[MICROAOT_WALK_MAX_DIMS];
  int32_t r = 0, c;
  MICROAOT_REDUCE_TRAIT(ACC) acc;
  MICROAOT_REDUCE_TRAIT(INIT)(acc, group[0]);
  for (c = 0; c < outer_dims; ++c) index[c] = 0; /* not "= {0}": a memset call for every group */
  do {
    const MICROAOT_T* row = group + microaot_walk_offset(outer_dims, index, p->reduced_strides);
    for (c = 0; c < row_size; ++c, ++r) {
      MICROAOT_REDUCE_TRAIT(STEP)(acc, row[c * step], r);
    }
  } while (microaot_walk_next(outer_dims, p->reduced_shape, index));
  return MICROAOT_REDUCE_TRAIT(FINISH)(p, acc);
}

/* The output elements in order: the kept walk gives each one's first input element. An including file may define
 * MICROAOT_REDUCE_FAST(params, input, output), a form for some layouts that returns 1 when it wrote the output
 * and 0 to leave the layer to this walk. */
void MICROAOT_FN(const MICROAOT_REDUCE_PARAMS* params, const MICROAOT_T* input, MICROAOT_REDUCE_OUT* output) {
  int32_t index[MICROAOT_WALK_MAX_DIMS];
  MICROAOT_REDUCE_OUT* out = output;
  int32_t d;
#ifdef MICROAOT_REDUCE_FAST
  if (MICROAOT_REDUCE_FAST(params, input, output)) return;
#endif
  for (d = 0; d < params->kept_dims; ++d) index[d] = 0;
  do {
    *out++ = reduce_group(params, input + microaot_walk_offset(params->kept_dims, index, params->kept_strides));
  } while (microaot_walk_next(params->kept_dims, params->kept_shape, index));
}
