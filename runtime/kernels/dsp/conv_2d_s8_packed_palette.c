/* int8 1x1 CONV_2D over palettised weights on the DSP (microaot/kernels/packed.h): four output channels at a
 * time decoded into a block in the int16 layout of the packed loops (microaot/internal/palette_dot.h), then every
 * output pixel against it, so each weight is decoded once per call; the output step the packed kernels' table. */
#include <stddef.h>

#include "microaot/internal/packed_step.h"
#include "microaot/internal/palette_dot.h"
#include "microaot/internal/palette_step.h"
#include "microaot/kernels/packed.h"
#include "microaot/packed_matmul.h"

typedef microaot_conv_2d_params_q conv_params;

/* One pixel's four channels (all present) from the decoded block: the step's words of both pairs read straight from
 * the table (`step`: the quad's first pair), the sums in registers. */
static inline void palette_quad_pixel(const uint32_t* block, const int8_t* in, int32_t groups, const int32_t* step,
                                      int8_t* out) {
  int32_t acc[4];
  microaot_palette_quad_start4(step, acc);
  microaot_palette_dot_1x4(block, in, groups, acc);
  microaot_palette_quad_store4(acc, step, out);
}

/* The `count` (1..3) channels of a last partial quad: absent channels' words are not read. */
static void palette_part_pixel(const uint32_t* block, const int8_t* in, int32_t groups, const int32_t* step,
                               int32_t count, int8_t* out) {
  int32_t acc[4];
  microaot_palette_quad_start(step, count, acc);
  microaot_palette_dot_1x4(block, in, groups, acc);
  microaot_palette_quad_store(acc, step, count, out);
}

/* Output channels u .. u + count - 1 of every output pixel, from the decoded block. */
static void palette_quad_pixels(const conv_params* p, const int8_t* input, const uint32_t* block,
                                const int32_t* requant, int32_t u, int32_t count, int8_t* output) {
  const size_t depth = (size_t)p->input_depth, units = (size_t)p->output_depth;
  const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * depth;
  const size_t pixel_step = (size_t)p->stride_width * depth;
  const size_t row_step = (size_t)p->stride_height * (size_t)p->input_width * depth;
  const int32_t groups = p->input_depth / 4;
  const int32_t* const step = requant + (u / 2) * MICROAOT_PACKED_STEP_WORDS; /* u is a multiple of 4 */
  int32_t b, oy, ox;
  int8_t* out = output + (size_t)u;
  for (b = 0; b < p->batches; ++b) {
    for (oy = 0; oy < p->output_height; ++oy) {
      const int8_t* in = input + (size_t)b * image_size + (size_t)oy * row_step;
      if (count == 4) {
        for (ox = 0; ox < p->output_width; ++ox, in += pixel_step, out += units) {
          palette_quad_pixel(block, in, groups, step, out);
        }
      } else {
        for (ox = 0; ox < p->output_width; ++ox, in += pixel_step, out += units) {
          palette_part_pixel(block, in, groups, step, count, out);
        }
      }
    }
  }
}

microaot_status microaot_conv_2d_s8_packed_palette(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                   const uint8_t* indices, const int8_t* table,
                                                   const int32_t* requant, int8_t* output, void* scratch) {
  const int32_t units = params->output_depth, depth = params->input_depth;
  uint32_t* const block = (uint32_t*)scratch;
  int bits;
  int32_t u;
  if (indices == NULL || table == NULL || requant == NULL || block == NULL) return MICROAOT_STATUS_NULL_POINTER;
  bits = microaot_palette_bits(indices);
  if (bits == 0 || !MICROAOT_PACKED_PALETTE_FITS(depth)) return MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  for (u = 0; u < units; u += 4) {
    const int32_t count = units - u < 4 ? units - u : 4;
    microaot_palette_decode_quad(indices, bits, table, (size_t)u, count, depth, block);
    palette_quad_pixels(params, input, block, requant, u, count, output);
  }
  if (params->activation_min != -128 || params->activation_max != 127) {
    microaot_packed_clamp_row(output, params->batches * params->output_height * params->output_width * units,
                              params->activation_min, params->activation_max);
  }
  return MICROAOT_STATUS_OK;
}
