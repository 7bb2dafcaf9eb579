/* ClipScale (clip_scale.h): one lookup table of the 256 int8 values, built in the scratch the planner
 * gives the call, then one table read per element. Freestanding C99, no malloc. */
#include "clip_scale.h"

enum { kOptionsSize = 4, kTableSize = 256 };

/* floor(v / 2^shift) without shifting a negative value (implementation-defined in C). */
static int32_t floor_shift(int32_t v, unsigned shift) {
  const int32_t d = (int32_t)1 << shift;
  return v >= 0 ? v / d : -((-v + d - 1) / d);
}

static int8_t saturate_int8(int32_t v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }

static int is_int8_tensor(const microaot_custom_tensor_info *info) {
  return info != NULL && info->dtype == MICROAOT_DTYPE_INT8 && info->num_scales == 1;
}

microaot_status microaot_custom_clipscale(const microaot_custom_op_args *args) {
  const microaot_custom_tensor_info *in, *out;
  const int8_t *x;
  int8_t *y, *table;
  int32_t lo, hi, num, i;
  unsigned shift;
  if (args->num_inputs != 1 || args->num_outputs != 1 || args->options_size != kOptionsSize ||
      args->scratch_size < kTableSize) {
    return MICROAOT_STATUS_BAD_SIZE;
  }
  in = args->inputs[0].info;
  out = args->outputs[0].info;
  if (!is_int8_tensor(in) || !is_int8_tensor(out) || in->num_elements != out->num_elements) {
    return MICROAOT_STATUS_BAD_SIZE;
  }
  lo = (int8_t)args->options[0];
  hi = (int8_t)args->options[1];
  num = (int8_t)args->options[2];
  shift = args->options[3] & 7u;
  table = (int8_t *)args->scratch;
  for (i = -128; i < 128; ++i) {
    const int32_t clipped = i < lo ? lo : i > hi ? hi : i;
    table[i + 128] = saturate_int8(floor_shift((clipped - in->zero_points[0]) * num, shift) + out->zero_points[0]);
  }
  x = (const int8_t *)args->inputs[0].data;
  y = (int8_t *)args->outputs[0].data;
  for (i = 0; i < in->num_elements; ++i) y[i] = table[x[i] + 128];
  return MICROAOT_STATUS_OK;
}
