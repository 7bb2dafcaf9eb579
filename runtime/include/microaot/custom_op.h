/* The ABI between generated code and a user's C function bound to an operator with
 * `microaot compile --custom-op NAME=HEADER` (a TFLite CUSTOM op, or a builtin the user replaces). */
#ifndef MICROAOT_CUSTOM_OP_H
#define MICROAOT_CUSTOM_OP_H

#include <stddef.h>
#include <stdint.h>

#include "microaot/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element type of a tensor (the TFLite types microaot reads). */
typedef enum {
  MICROAOT_DTYPE_FLOAT32 = 0,
  MICROAOT_DTYPE_INT8 = 1,
  MICROAOT_DTYPE_UINT8 = 2,
  MICROAOT_DTYPE_INT16 = 3,
  MICROAOT_DTYPE_INT32 = 4,
  MICROAOT_DTYPE_INT64 = 5,
  MICROAOT_DTYPE_BOOL = 6
} microaot_dtype;

/* What is known of a tensor at compile time; const, in flash. Quantized tensors have num_scales >= 1:
 * real = scales[c] * (q - zero_points[c]), with c the index along quantized_dimension when num_scales > 1
 * (per-channel weights), else 0. Float tensors have num_scales == 0 and NULL arrays. */
typedef struct {
  microaot_dtype dtype;
  int32_t rank;
  const int32_t *dims;      /* rank entries, row-major (last dimension varies fastest) */
  int32_t num_elements;     /* the product of dims (1 for rank 0) */
  int32_t num_scales;       /* 0: not quantized */
  const float *scales;      /* num_scales entries */
  const int32_t *zero_points; /* num_scales entries */
  int32_t quantized_dimension;
} microaot_custom_tensor_info;

/* One tensor of a call: its data (planned in the arena, or a constant in flash) and its description.
 * An absent optional input has data == NULL and info == NULL. */
typedef struct {
  const void *data;
  const microaot_custom_tensor_info *info;
} microaot_custom_input;

typedef struct {
  void *data;
  const microaot_custom_tensor_info *info;
} microaot_custom_output;

/* Everything one call reads. Outputs never share memory with inputs; the scratch is the call's alone
 * (scratch_size bytes as asked with `scratch=BYTES`, aligned as the arena's buffers; NULL when 0) and its
 * content does not survive between calls. `options` are the op's custom_options bytes copied verbatim from
 * the .tflite file (TFLite converters usually write a flexbuffer); empty for a replaced builtin. */
typedef struct {
  const microaot_custom_input *inputs;
  size_t num_inputs;
  const microaot_custom_output *outputs;
  size_t num_outputs;
  const uint8_t *options;
  size_t options_size;
  void *scratch;
  size_t scratch_size;
} microaot_custom_op_args;

/* The type of a bound function. Return MICROAOT_STATUS_OK, or another status to stop the run: `run`
 * (`run_steps`) returns that status to its caller and the outputs are not readable. Do not return
 * MICROAOT_STATUS_IN_PROGRESS, which `run_steps` reserves for "operators are left";
 * MICROAOT_STATUS_VALUE_OUT_OF_RANGE suits input data the function refuses. */
typedef microaot_status (*microaot_custom_op_fn)(const microaot_custom_op_args *args);

#ifdef __cplusplus
}
#endif

#endif /* MICROAOT_CUSTOM_OP_H */
