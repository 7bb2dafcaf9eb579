/* BATCH_MATMUL int8: one dot product per output element, as TFLite Micro's reference computes it. */
#define MICROAOT_DTYPE s8
#define MICROAOT_FN microaot_batch_matmul_s8
#include "microaot/internal/templates/batch_matmul.h"
