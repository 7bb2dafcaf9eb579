/* MINIMUM int8 on a cpu with the DSP extension: four elements a word (microaot/internal/dsp_pick.h). */
#include "microaot/internal/dsp_pick.h"

MICROAOT_DEFINE_DSP_PICK_KERNEL(minimum_s8, microaot_dsp_smin8, MICROAOT_MINIMUM)
