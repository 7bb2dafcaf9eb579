/* The DSP depthwise kernels' ring rows, which both renamed kernels beside call (one definition). */
#include "../dsp/depthwise_conv_2d_s8_ring_rows.c"
