/* The BATCH_MATMUL template for one element type: the including file defines MICROAOT_DTYPE (s8, s16, f32) and
 * MICROAOT_FN (declared in microaot/kernels/batch_matmul.h). Every output element is one dot product over the
 * depth in order, from 0, through the type's product and output step. */
#include <stddef.h>

#include "microaot/internal/kernel_dtype.h"
#include "microaot/kernels/batch_matmul.h"

#define MICROAOT_BMM_PARAMS_s8 microaot_batch_matmul_params_q
#define MICROAOT_BMM_PARAMS_s16 microaot_batch_matmul_params_q
#define MICROAOT_BMM_PARAMS_f32 microaot_batch_matmul_params_f32
#define MICROAOT_BMM_PRODUCT_s8(p, a, b) (((int32_t)(a) + (p)->lhs_offset) * ((int32_t)(b) + (p)->rhs_offset))
#define MICROAOT_BMM_PRODUCT_s16(p, a, b) \
  (((int64_t)(a) + (p)->lhs_offset) * ((int64_t)(b) + (p)->rhs_offset))
#define MICROAOT_BMM_PRODUCT_f32(p, a, b) ((a) * (b))
#define MICROAOT_BMM_OUTPUT_s8(p, acc)                                                                          \
  ((int8_t)microaot_clamp_s32(                                                                                  \
      microaot_multiply_by_quantized_multiplier(acc, (p)->output_multiplier, (p)->output_shift) + (p)->output_offset, \
      INT8_MIN, INT8_MAX))
#define MICROAOT_BMM_OUTPUT_s16(p, acc)                                                                       \
  ((int16_t)microaot_clamp_s32(microaot_multiply_by_quantized_multiplier_s64(acc, (p)->output_multiplier,     \
                                                                             (p)->output_shift) +             \
                                   (p)->output_offset,                                                        \
                               INT16_MIN, INT16_MAX))
#define MICROAOT_BMM_OUTPUT_f32(p, acc) (acc)

#define MICROAOT_BMM_PARAMS MICROAOT_CAT(MICROAOT_BMM_PARAMS_, MICROAOT_DTYPE)
#define MICROAOT_BMM_PRODUCT(p, a, b) MICROAOT_CAT(MICROAOT_BMM_PRODUCT_, MICROAOT_DTYPE)(p, a, b)
#define MICROAOT_BMM_OUTPUT(p, acc) MICROAOT_CAT(MICROAOT_BMM_OUTPUT_, MICROAOT_DTYPE)(p, acc)

/* One [rows, cols] output matrix from the two operand matrices of its batch. */
static void batch_matmul_one(const MICROAOT_BMM_PARAMS* p, const MICROAOT_T* lhs, const MICROAOT_T* rhs,
                             MICROAOT_T* out) {
  int32_t i, j, k;
  for (i = 0; i < p->rows; ++i) {
    const MICROAOT_T* lhs_row = lhs + (ptrdiff_t)i * p->lhs_row_stride;
    for (j = 0; j < p->cols; ++j) {
      const MICROAOT_T* rhs_col = rhs + (ptrdiff_t)j * p->rhs_col_stride;
      MICROAOT_ACC acc = 0;
      for (k = 0; k < p->depth; ++k) {
        acc += MICROAOT_BMM_PRODUCT(p, lhs_row[(ptrdiff_t)k * p->lhs_depth_stride],
                                    rhs_col[(ptrdiff_t)k * p->rhs_depth_stride]);
      }
      *out++ = MICROAOT_BMM_OUTPUT(p, acc);
    }
  }
}

void MICROAOT_FN(const MICROAOT_BMM_PARAMS* params, const MICROAOT_T* lhs, const MICROAOT_T* rhs,
                 MICROAOT_T* output) {
  const ptrdiff_t matrix = (ptrdiff_t)params->rows * params->cols;
  int32_t index[MICROAOT_WALK_MAX_DIMS] = {0};
  MICROAOT_T* out = output;
  do {
    batch_matmul_one(params, lhs + microaot_walk_offset(params->batch_dims, index, params->lhs_batch_strides),
                     rhs + microaot_walk_offset(params->batch_dims, index, params->rhs_batch_strides), out);
    out += matrix;
  } while (microaot_walk_next(params->batch_dims, params->batch_shape, index));
}
