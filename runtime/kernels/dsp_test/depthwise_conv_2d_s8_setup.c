/* The DSP depthwise kernels' set-up and ring driver, which both renamed kernels beside call (one definition). */
#include "../dsp/depthwise_conv_2d_s8_setup.c"
