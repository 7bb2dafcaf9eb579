/* AVERAGE_POOL_2D int8 for a cpu with the DSP extension, bit-exact with the portable kernel: four channels per
 * pass, each window pixel one word of the four and two SXTAB16 that add its bytes 0, 2 and 1, 3 into 16-bit
 * lanes. A window of at most 256 elements sums to [-32768, 32512], within a lane, so the lanes never wrap;
 * larger windows and channel counts that are not a multiple of four take the template's per-element row. */
#include <stdint.h>

#include "microaot/dsp.h"
#include "microaot/kernels/pooling.h"
#include "microaot/window.h"

static void dsp_average_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out);
#define MICROAOT_POOL_ROW dsp_average_row

#define MICROAOT_DTYPE s8
#define MICROAOT_POOL average
#define MICROAOT_FN microaot_average_pool_2d_s8
#define MICROAOT_FN_OVERLAP microaot_average_pool_2d_s8_overlap
#include "microaot/templates/pool_2d.h"

#define DSP_POOL_MAX_LANE_WINDOW 256 /* elements whose int8 sum fits an int16 lane */

/* The sums of four channels over the window (rows y, columns x) at `base` (channel c of pixel (0, 0)). */
#if defined(__GNUC__)
__attribute__((noinline)) /* its own registers: inlined, the loop reloads spilled values */
#endif
static void window_sums4(const int8_t* base, size_t row_stride, size_t pixel_stride, microaot_window y,
                         microaot_window x, int32_t sums[4]) {
  uint32_t even = 0, odd = 0; /* lanes: channels c, c + 2 and c + 1, c + 3 */
  const size_t width = (size_t)(x.end - x.begin) * pixel_stride;
  int32_t fy;
  for (fy = y.begin; fy < y.end; ++fy) {
    const int8_t* in = base + (size_t)(y.origin + fy) * row_stride + (size_t)(x.origin + x.begin) * pixel_stride;
    const int8_t* const end = in + width;
    for (; in != end; in += pixel_stride) {
      const uint32_t word = microaot_dsp_load4(in);
      even = microaot_dsp_sxtab16(even, word);
      odd = microaot_dsp_sxtab16_ror8(odd, word);
    }
  }
  sums[0] = (int16_t)(even & 0xFFFFu);
  sums[1] = (int16_t)(odd & 0xFFFFu);
  sums[2] = (int16_t)(even >> 16);
  sums[3] = (int16_t)(odd >> 16);
}

static void dsp_average_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy, int8_t* out) {
  const int32_t channels = p->channels;
  const size_t row_stride = (size_t)p->input_width * (size_t)channels;
  const microaot_window y =
      microaot_window_of(oy, p->stride_height, p->padding_height, p->filter_height, 1, p->input_height);
  int32_t ox, c, k;
  if (channels % 4 != 0 || p->filter_height * p->filter_width > DSP_POOL_MAX_LANE_WINDOW) {
    pool_row(p, in_image, oy, out);
    return;
  }
  for (ox = 0; ox < p->output_width; ++ox) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->padding_width, p->filter_width, 1, p->input_width);
    const int32_t count = (y.end - y.begin) * (x.end - x.begin);
    for (c = 0; c + 4 <= channels; c += 4) {
      int32_t sums[4];
      window_sums4(in_image + c, row_stride, (size_t)channels, y, x, sums);
      for (k = 0; k < 4; ++k) *out++ = MICROAOT_CLAMP(p, pool_mean_int(sums[k], count));
    }
  }
}
