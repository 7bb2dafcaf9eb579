/* The portable depthwise under the DSP kernels' `_portable` names, which both renamed DSP kernels call. */
#include "../dsp/depthwise_conv_2d_s8_portable.c"
