/* SOFTMAX int8 -> int8 with the exps of the 256 differences computed at compile time: the template's
 * arithmetic with one table read in the place of each fixed-point exp (about 150 instructions on a Cortex-M4,
 * twice per element). */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_softmax_s8_table
#define MICROAOT_SOFTMAX_PARAMS microaot_softmax_table_params_s8
#define MICROAOT_SOFTMAX_EXP(params, diff) ((params)->exps[-(diff)])
#include "microaot/internal/templates/softmax_s8.h"
