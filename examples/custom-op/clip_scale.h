/* ClipScale, the example's custom operator: the function `microaot compile --custom-op
 * ClipScale=clip_scale.h,scratch=256` binds to the model's CUSTOM op "ClipScale". The generated code
 * includes a copy of this header (OUT/custom/clip_scale.h), so it names only what the call needs. */
#ifndef CLIP_SCALE_H
#define CLIP_SCALE_H

#include "microaot/custom_op.h"

/* int8 in, int8 out, same shape. Options: 4 raw bytes lo, hi (int8), num (int8), shift (uint8, 0..7):
 * out = floor((clip(q, lo, hi) - zp_in) * num / 2^shift) + zp_out, saturated to int8. Needs 256 bytes of
 * scratch (a lookup table). Returns MICROAOT_STATUS_BAD_SIZE when the call is not of that form. */
microaot_status microaot_custom_clipscale(const microaot_custom_op_args *args);

#endif /* CLIP_SCALE_H */
