/* MAXIMUM int8 on a cpu with the DSP extension: four elements a word (microaot/internal/dsp_pick.h). */
#include "microaot/internal/dsp_pick.h"

MICROAOT_DEFINE_DSP_PICK_KERNEL(maximum_s8, microaot_dsp_smax8, MICROAOT_MAXIMUM)
