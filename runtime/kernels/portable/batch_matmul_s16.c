/* BATCH_MATMUL int16: one dot product per output element, as TFLite Micro's reference computes it. */
#define MICROAOT_DTYPE s16
#define MICROAOT_FN microaot_batch_matmul_s16
#include "microaot/internal/templates/batch_matmul.h"
