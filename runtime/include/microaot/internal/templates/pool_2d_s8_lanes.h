/* The lane path of the DSP int8 AVERAGE_POOL_2D: four channels per pass, each window pixel one word of the four
 * and two SXTAB16 that add its bytes 0, 2 and 1, 3 into 16-bit lanes. Shared by the full DSP kernel
 * (dsp/average_pool_2d_s8.c), the lanes' own (dsp/average_pool_2d_s8_lanes.c) and the global pool's (window_means
 * alone: dsp/average_pool_2d_s8_global.c), which include it after
 * microaot/internal/templates/pool_2d.h (pool_mean_int, pool_mean_even, MICROAOT_CLAMP) with MICROAOT_DTYPE s8. */
#include <stddef.h>
#include <stdint.h>

#include "microaot/internal/dsp.h"
#include "microaot/fit/average_pool_2d.h"
#include "microaot/kernels/pooling.h"
#include "microaot/internal/window.h"

/* The window's channel sums, four channels a pass, at `first` (its first in-bounds pixel, channel 0), `rows`
 * rows of `width` bytes (pixels times channels), written as the means of their element count to out[0..channels).
 * The channel loop inside: one call per window, not per four channels. */
#if defined(__GNUC__)
__attribute__((noinline)) /* its own registers: inlined, the loop reloads spilled values */
#endif
static void window_means(const microaot_pool_2d_params_q* p, const int8_t* first, int32_t rows, size_t width,
                         int8_t* out) {
  const size_t pixel_stride = (size_t)p->channels, row_stride = (size_t)p->input_width * pixel_stride;
  const int32_t count = rows * (int32_t)(width / pixel_stride);
  const int8_t* const channels_end = first + pixel_stride;
  const int32_t ties_to_even = p->ties_to_even;
  for (; first != channels_end; first += 4, out += 4) {
    uint32_t even = 0, odd = 0; /* lanes: channels c, c + 2 and c + 1, c + 3 */
    int32_t sums[4], fy, k;
    const int8_t* row = first;
    for (fy = 0; fy < rows; ++fy, row += row_stride) {
      const int8_t* in = row;
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
    if (ties_to_even) { /* tested once per four channels, not per channel */
      for (k = 0; k < 4; ++k) out[k] = MICROAOT_CLAMP(p, pool_mean_even(sums[k], count));
    } else {
      for (k = 0; k < 4; ++k) out[k] = MICROAOT_CLAMP(p, pool_mean_int(sums[k], count));
    }
  }
}

#ifndef MICROAOT_POOL_MEANS_ONLY /* the global pool's source sums its whole plane in window_means alone */
/* Output row oy of a layer the lanes compute (microaot_fit_pool_lanes). */
static void dsp_pool_lanes_row(const microaot_pool_2d_params_q* p, const int8_t* in_image, int32_t oy,
                               int8_t* out) {
  const size_t channels = (size_t)p->channels;
  const microaot_window y =
      microaot_window_of(oy, p->stride_height, p->padding_height, p->filter_height, 1, p->input_height);
  const int8_t* const top = in_image + (size_t)(y.origin + y.begin) * (size_t)p->input_width * channels;
  int32_t ox;
  for (ox = 0; ox < p->output_width; ++ox, out += channels) {
    const microaot_window x =
        microaot_window_of(ox, p->stride_width, p->padding_width, p->filter_width, 1, p->input_width);
    const int8_t* const first = top + (size_t)(x.origin + x.begin) * channels;
    window_means(p, first, y.end - y.begin, (size_t)(x.end - x.begin) * channels, out);
  }
}
#endif
