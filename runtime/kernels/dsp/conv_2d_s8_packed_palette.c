/* int8 1x1 CONV_2D over palettised weights on the DSP (microaot/kernels/packed.h): four output channels at a
 * time decoded into a block in the int16 layout of the packed loops (microaot/internal/palette_dot.h), then every
 * output pixel against it, so each weight is decoded once per call; the output step the packed kernels' table. */
#include <stddef.h>
#include <string.h>

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

/* A row of pixels' four channels: out to out_end, `units` bytes apart. Not inlined: the row's few values stay in
 * registers around the dot's asm block (inlined, the pixel loop reloaded them from the stack). */
static __attribute__((noinline)) void palette_quad_row(const uint32_t* block, const int8_t* in, int32_t groups,
                                                       const int32_t* step, int8_t* out, const int8_t* out_end,
                                                       size_t units, size_t pixel_step) {
  for (; out != out_end; in += pixel_step, out += units) palette_quad_pixel(block, in, groups, step, out);
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
        palette_quad_row(block, in, groups, step, out, out + (size_t)p->output_width * units, units, pixel_step);
        out += (size_t)p->output_width * units;
      } else {
        for (ox = 0; ox < p->output_width; ++ox, in += pixel_step, out += units) {
          palette_part_pixel(block, in, groups, step, count, out);
        }
      }
    }
  }
}

/* Every channel of the call's output pixels, quad by quad through the block; the clamp of a ReLU layer after. */
static void palette_quads(const conv_params* p, const int8_t* input, const uint8_t* indices, int bits,
                          const int8_t* table, const int32_t* requant, int8_t* output, uint32_t* block) {
  const int32_t units = p->output_depth;
  int32_t u;
  for (u = 0; u < units; u += 4) {
    const int32_t count = units - u < 4 ? units - u : 4;
    microaot_palette_decode_quad(indices, bits, table, (size_t)u, count, p->input_depth, block);
    palette_quad_pixels(p, input, block, requant, u, count, output);
  }
  if (p->activation_min != -128 || p->activation_max != 127) {
    microaot_packed_clamp_row(output, p->batches * p->output_height * p->output_width * units, p->activation_min,
                              p->activation_max);
  }
}

/* The header's width, or 0 for a call the kernel refuses (a missing argument: *status set). */
static int palette_checked(const conv_params* p, const uint8_t* indices, const int8_t* table, const int32_t* requant,
                           const void* scratch, microaot_status* status) {
  int bits;
  *status = MICROAOT_STATUS_NULL_POINTER;
  if (indices == NULL || table == NULL || requant == NULL || scratch == NULL) return 0;
  bits = microaot_palette_bits(indices);
  *status = MICROAOT_STATUS_VALUE_OUT_OF_RANGE;
  return bits != 0 && MICROAOT_PACKED_PALETTE_FITS(p->input_depth) ? bits : 0;
}

microaot_status microaot_conv_2d_s8_packed_palette(const microaot_conv_2d_params_q* params, const int8_t* input,
                                                   const uint8_t* indices, const int8_t* table,
                                                   const int32_t* requant, int8_t* output, void* scratch) {
  microaot_status status;
  const int bits = palette_checked(params, indices, table, requant, scratch, &status);
  if (bits == 0) return status;
  palette_quads(params, input, indices, bits, table, requant, output, (uint32_t*)scratch);
  return MICROAOT_STATUS_OK;
}

/* Chunks of MICROAOT_PACKED_PALETTE_OVERLAP_ROWS output rows of one image, each computed whole (every quad, the
 * block decoded again per chunk) into the scratch after the block and then stored: a chunk's rows read only their
 * own input pixels, so every read of the chunk comes before its store (the row-wise in-place bound). */
microaot_status microaot_conv_2d_s8_packed_palette_overlap(const microaot_conv_2d_params_q* params,
                                                           const int8_t* input, const uint8_t* indices,
                                                           const int8_t* table, const int32_t* requant,
                                                           int8_t* output, void* scratch) {
  const int32_t chunk = microaot_packed_palette_overlap_rows(params);
  const size_t row_in = (size_t)params->stride_height * (size_t)params->input_width * (size_t)params->input_depth;
  const size_t image_in = (size_t)params->input_height * (size_t)params->input_width * (size_t)params->input_depth;
  const size_t row_out = (size_t)params->output_width * (size_t)params->output_depth;
  int8_t* const rows = (int8_t*)scratch + MICROAOT_PACKED_PALETTE_BLOCK_BYTES(params->input_depth);
  conv_params q = *params;
  microaot_status status;
  const int bits = palette_checked(params, indices, table, requant, scratch, &status);
  int32_t b, oy;
  if (bits == 0) return status;
  q.batches = 1;
  for (b = 0; b < params->batches; ++b) {
    for (oy = 0; oy < params->output_height; oy += chunk) {
      q.output_height = params->output_height - oy < chunk ? params->output_height - oy : chunk;
      palette_quads(&q, input + (size_t)b * image_in + (size_t)oy * row_in, indices, bits, table, requant, rows,
                    (uint32_t*)scratch);
      memcpy(output + ((size_t)b * (size_t)params->output_height + (size_t)oy) * row_out, rows,
             (size_t)q.output_height * row_out);
    }
  }
  return MICROAOT_STATUS_OK;
}
